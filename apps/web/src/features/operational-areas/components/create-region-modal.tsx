// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// "Create Region": a name and a searchable country select; 'Region created successfully' on success (docs/requirements.md §2, §8).
import { useEffect } from 'react';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import { notifySuccess } from '../../../lib/notifier';
import { useCountries } from '../../../lib/lookups';
import { useCreateRegion } from '../api/regions';

export const REGION_CREATED = 'Region created successfully';

export function CreateRegionModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<{ name: string; country_id: string }>();
  const countries = useCountries(open);
  const create = useCreateRegion();
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  const submit = async () => {
    const v = await form.validateFields();
    const res = await create.mutateAsync(v);
    notifySuccess(res.message ?? REGION_CREATED);
    onClose();
  };
  return (
    <Modal open={open} title="Create Region" onCancel={onClose} onOk={() => void submit().catch(() => undefined)} okText="Create" okButtonProps={{ loading: create.isPending }} destroyOnHidden>
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="country_id" label="Country" rules={[{ required: true, message: 'Please select a country' }]}>
          <Select
            placeholder="Search a country"
            loading={countries.isLoading}
            showSearch={{ optionFilterProp: 'label' }}
            options={(countries.data?.data ?? []).map((c) => ({ value: c.id, label: `${c.flag_emoji} ${c.country_name}` }))}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label="Region name"
          rules={[
            { required: true, whitespace: true, message: 'Name is required' },
            { min: 2, message: 'Name should have at least 2 letters' },
          ]}
        >
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
