// The side drawer for details and forms that keep the list in view (tenant license, agent and farm details…).
import type { ReactNode } from 'react';
import Drawer from 'antd/es/drawer';

type Props = {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
};

export function SideDrawer({ open, title, onClose, children, footer, width = 440 }: Props) {
  return (
    <Drawer open={open} title={title} onClose={onClose} size={width} placement="right" footer={footer} destroyOnHidden>
      {children}
    </Drawer>
  );
}
