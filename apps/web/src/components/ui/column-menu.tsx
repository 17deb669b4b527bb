// The column-visibility menu of a list: tick the columns to show; at least one stays visible.
import { useState } from 'react';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Dropdown from 'antd/es/dropdown';
import { TableOutlined } from '@ant-design/icons';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

type Props = {
  columns: readonly { key: string; title: string }[];
  visible: readonly string[];
  onChange: (visible: string[]) => void;
};

export function ColumnMenu({ columns, visible, onChange }: Props) {
  const [open, setOpen] = useState(false);
  const toggle = (key: string) => {
    const next = visible.includes(key) ? visible.filter((k) => k !== key) : [...visible, key];
    if (next.length === 0) return;
    onChange(columns.map((c) => c.key).filter((k) => next.includes(k)));
  };
  return (
    <Dropdown
      open={open}
      onOpenChange={(o, info) => {
        if (info.source === 'trigger' || !o) setOpen(o);
      }}
      trigger={['click']}
      menu={{
        items: columns.map((c) => ({
          key: c.key,
          label: (
            <Checkbox checked={visible.includes(c.key)} tabIndex={-1} className="inert">
              {c.title}
            </Checkbox>
          ),
        })),
        onClick: ({ key }) => toggle(key),
      }}
    >
      <Button icon={<TableOutlined aria-hidden="true" />} aria-haspopup="menu">
        {t(m.columns)}
      </Button>
    </Dropdown>
  );
}
