// "Create Region": a name and a searchable country select; 'Region created successfully' on success (docs/requirements.md §2, §8).
import { useEffect } from 'react';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import { notifySuccess } from '../../../lib/notifier';
import { useCountries } from '../../../lib/lookups';
import { useCreateRegion } from '../api/regions';
import { t } from '../../../i18n';
import { operationalAreasText as m } from '../operational-areas.messages';

export function CreateRegionModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<{ name: string; country_id: string }>();
  const countries = useCountries(open);
  const create = useCreateRegion();
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  const submit = async () => {
    const v = await form.validateFields();
    await create.mutateAsync(v);
    notifySuccess(t(m.regionCreated));
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t(m.createRegion)}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t(m.create)}
      okButtonProps={{ loading: create.isPending }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="country_id" label={t(m.country)} rules={[{ required: true, message: t(m.selectCountryRequired) }]}>
          <Select
            placeholder={t(m.searchCountry)}
            loading={countries.isLoading}
            showSearch={{ optionFilterProp: 'label' }}
            options={(countries.data?.data ?? []).map((c) => ({ value: c.id, label: `${c.flag_emoji} ${c.country_name}` }))}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t(m.regionName)}
          rules={[
            { required: true, whitespace: true, message: t(m.nameRequired) },
            { min: 2, message: t(m.nameMin) },
          ]}
        >
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
