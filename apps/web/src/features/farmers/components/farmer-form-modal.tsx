// Create Single and Edit Farmer: photo, first and last name, email, phone and address (marked required, docs/requirements.md §5), gender,
// location, folio id (generated when left empty) and region. Multipart; the API's field errors land on their fields.
import { useEffect, useMemo, useRef, useState } from 'react';
import { UserOutlined } from '@ant-design/icons';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import Upload from 'antd/es/upload';
import { createFarmerBody, type Farmer } from '@farmland/contracts';
import { formFieldErrors } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { useFarmer } from '../api/get-farmer';
import { useRegions } from '../../../lib/lookups';
import { useSaveFarmer, type FarmerFields } from '../api/save-farmer';
import { t, type Text } from '../../../i18n';
import { farmersText as m } from '../farmers.messages';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const FIELDS = ['first_name', 'last_name', 'email', 'phone_number', 'gender', 'address', 'location', 'folio_id', 'region_id'] as const;

/** A form rule: required (the spec's asterisks) and the contract's own check of the field. */
const rule = (field: (typeof FIELDS)[number], required: boolean, label: Text) => ({
  validator: async (_r: unknown, value: unknown) => {
    const text = typeof value === 'string' ? value.trim() : '';
    if (!text) {
      if (required) throw new Error(t(m.isRequired, { label: t(label) }));
      return;
    }
    const parsed = createFarmerBody.shape[field].safeParse(text);
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? t(m.invalidValue));
  },
});

export function FarmerFormModal({
  open,
  farmerId,
  onClose,
  onSaved,
}: {
  open: boolean;
  farmerId: string | null;
  onClose: () => void;
  onSaved?: (farmer: Farmer) => void;
}) {
  const [form] = Form.useForm<FarmerFields>();
  const existing = useFarmer(open ? farmerId : null);
  const regions = useRegions();
  const save = useSaveFarmer();
  const [image, setImage] = useState<File | null>(null);
  const preview = useMemo(() => (image ? URL.createObjectURL(image) : null), [image]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const farmer = farmerId ? existing.data?.data : undefined;

  const filledFor = useRef<string | null>(null);
  useEffect(() => {
    if (!open) {
      filledFor.current = null;
      return;
    }
    const key = farmerId ? (farmer ? farmer.id : null) : 'new';
    if (key === null || filledFor.current === key) return;
    filledFor.current = key;
    setImage(null);
    form.resetFields();
    if (farmer)
      form.setFieldsValue({
        first_name: farmer.first_name,
        last_name: farmer.last_name,
        email: farmer.email ?? '',
        phone_number: farmer.phone_number ?? '',
        address: farmer.address ?? '',
        location: farmer.location ?? '',
        folio_id: farmer.folio_id,
        ...(farmer.gender === 'Male' || farmer.gender === 'Female' ? { gender: farmer.gender } : {}),
        ...(farmer.region_id ? { region_id: farmer.region_id } : {}),
      });
  }, [open, farmerId, farmer, form]);

  const submit = async () => {
    let values: FarmerFields;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    save.mutate(
      { id: farmerId, fields: values, image },
      {
        onSuccess: (res) => {
          notifySuccess(farmerId ? t(m.edited) : t(m.created));
          onSaved?.(res.data);
          onClose();
        },
        onError: (err) => {
          form.setFields(formFieldErrors<keyof FarmerFields>(err, FIELDS));
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      title={farmerId ? t(m.editFarmer) : t(m.createFarmer)}
      onCancel={onClose}
      width={640}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose} disabled={save.isPending}>
          {t(m.cancel)}
        </Button>,
        <Button key="save" type="primary" loading={save.isPending} disabled={Boolean(farmerId) && !farmer} onClick={() => void submit()}>
          {farmerId ? t(m.saveChanges) : t(m.createFarmer)}
        </Button>,
      ]}
    >
      {farmerId && existing.isLoading ? (
        <div role="status">{t(m.loadingFarmer)}</div>
      ) : (
        <Form form={form} layout="vertical" requiredMark>
          <div className="inline gap-12 mb-16">
            <Avatar size={56} src={preview ?? farmer?.image ?? undefined} icon={<UserOutlined />} alt="" />
            <Upload
              accept={IMAGE_TYPES.join(',')}
              showUploadList={false}
              beforeUpload={(f) => {
                if (IMAGE_TYPES.includes(f.type)) setImage(f);
                else notifyError(new Error(t(m.imageTypes)));
                return false;
              }}
            >
              <Button>{image || farmer?.image ? t(m.changePhoto) : t(m.addPhoto)}</Button>
            </Upload>
            {image && <span className="text-muted">{image.name}</span>}
          </div>
          <div className="form-pair">
            <Form.Item label={t(m.firstName)} name="first_name" required rules={[rule('first_name', true, m.firstName)]}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item label={t(m.lastName)} name="last_name" required rules={[rule('last_name', true, m.lastName)]}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item label={t(m.email)} name="email" required rules={[rule('email', true, m.email)]}>
              <Input type="email" autoComplete="off" />
            </Form.Item>
            <Form.Item label={t(m.phoneNumber)} name="phone_number" required rules={[rule('phone_number', true, m.phoneNumber)]}>
              <Input inputMode="tel" autoComplete="off" />
            </Form.Item>
            <Form.Item label={t(m.address)} name="address" required rules={[rule('address', true, m.address)]} className="span-both">
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item label={t(m.gender)} name="gender" htmlFor="farmer-gender">
              <Select
                id="farmer-gender"
                allowClear
                placeholder={t(m.selectGender)}
                options={[
                  { label: t(m.male), value: 'Male' },
                  { label: t(m.female), value: 'Female' },
                ]}
              />
            </Form.Item>
            <Form.Item label={t(m.region)} name="region_id" htmlFor="farmer-region">
              <Select
                id="farmer-region"
                allowClear
                placeholder={t(m.selectRegion)}
                loading={regions.isLoading}
                options={(regions.data?.data.results ?? []).map((r) => ({ label: `${r.name} (${r.country})`, value: r.id }))}
              />
            </Form.Item>
            <Form.Item label={t(m.locationLabel)} name="location" rules={[rule('location', false, m.location)]}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item label={t(m.folioLabel)} name="folio_id" rules={[rule('folio_id', false, m.farmersId)]} extra={farmerId ? undefined : t(m.folioHint)}>
              <Input autoComplete="off" />
            </Form.Item>
          </div>
        </Form>
      )}
    </Modal>
  );
}
