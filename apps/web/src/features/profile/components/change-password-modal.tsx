// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// Change password: the current password, then the new one twice.
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { MIN_PASSWORD_LENGTH } from '@farmland/contracts';
import { useChangePassword } from '../api/change-password';

type Values = { old_password: string; new_password: string; confirm: string };

export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const change = useChangePassword();
  const submit = (v: Values) =>
    change.mutate(
      { old_password: v.old_password, new_password: v.new_password },
      {
        onSuccess: () => {
          form.resetFields();
          onClose();
        },
      },
    );
  return (
    <Modal open={open} title="Change password" okText="Change password" onOk={() => form.submit()} onCancel={onClose} okButtonProps={{ loading: change.isPending }} destroyOnHidden>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item label="Current password" name="old_password" rules={[{ required: true, message: 'Enter your current password' }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item label="New password" name="new_password" rules={[{ required: true, message: 'Enter a new password' }, { min: MIN_PASSWORD_LENGTH, message: `Password must be at least ${MIN_PASSWORD_LENGTH} characters` }]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="Confirm new password"
          name="confirm"
          dependencies={['new_password']}
          rules={[
            { required: true, message: 'Confirm the new password' },
            ({ getFieldValue }) => ({
              validator: (_r, value: unknown) => (!value || getFieldValue('new_password') === value ? Promise.resolve() : Promise.reject(new Error('The passwords do not match'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
