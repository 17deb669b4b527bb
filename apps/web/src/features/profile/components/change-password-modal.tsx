// Change password: the current password, then the new one twice.
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { MIN_PASSWORD_LENGTH } from '@farmland/contracts';
import { useChangePassword } from '../api/change-password';
import { t } from '../../../i18n';
import { profileText as m } from '../profile.messages';

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
    <Modal
      open={open}
      title={t(m.changePassword)}
      okText={t(m.changePassword)}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ loading: change.isPending }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item label={t(m.currentPassword)} name="old_password" rules={[{ required: true, message: t(m.enterCurrentPassword) }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label={t(m.newPassword)}
          name="new_password"
          rules={[
            { required: true, message: t(m.enterNewPassword) },
            { min: MIN_PASSWORD_LENGTH, message: t(m.passwordMin, { min: MIN_PASSWORD_LENGTH }) },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label={t(m.confirmNewPassword)}
          name="confirm"
          dependencies={['new_password']}
          rules={[
            { required: true, message: t(m.confirmTheNewPassword) },
            ({ getFieldValue }) => ({
              validator: (_r, value: unknown) =>
                !value || getFieldValue('new_password') === value ? Promise.resolve() : Promise.reject(new Error(t(m.passwordsDiffer))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
