// The Create/Edit Tenant modal in three steps (docs/requirements.md §2, §4, §5): Organization Information, Admin Information, License
// Information. Country, state and city are searchable selects, and the cities (searched on the server) and states follow
// the chosen country. Sync farm details shows only for an SDK license. Submit is enabled on the third step only. After a
// create, the license key is shown in full this once (the API stores it hashed).
import { useEffect, useState } from 'react';
import DatePicker from 'antd/es/date-picker';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import dayjs from 'dayjs';
import { StepWizard } from '../../../components/ui/step-wizard';
import { notifySuccess } from '../../../lib/notifier';
import { LicenseKeyModal } from '../../../components/ui/copy-key';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useTenant } from '../api/get-tenant';
import { useCities, useCountries, useStates } from '../../../lib/lookups';
import { useSaveTenant } from '../api/save-tenant';
import { t, type Text } from '../../../i18n';
import { tenantsText as m } from '../tenants.messages';
import { fromTenant, PRICE_RE, toTenantBody, type TenantFormValues } from './tenant-form';

type Props = { open: boolean; tenantId: string | null; onClose: () => void };

const email = () => ({ type: 'email' as const, message: t(m.validEmail) });
const required = (label: Text) => ({ required: true, whitespace: true, message: t(m.isRequired, { label: t(label) }) });

export function TenantWizard({ open, tenantId, onClose }: Props) {
  const [form] = Form.useForm<TenantFormValues>();
  const editing = useTenant(open ? tenantId : null);
  const save = useSaveTenant();
  const countryId = Form.useWatch('country_id', form);
  const licenseType = Form.useWatch('license_type', form);
  const [citySearch, setCitySearch] = useState('');
  const [createdKey, setCreatedKey] = useState<{ name: string; key: string; changed: boolean } | null>(null);
  const cityQuery = useDebouncedValue(citySearch);
  const countries = useCountries(open);
  const states = useStates(countryId);
  const cities = useCities(countryId, cityQuery.trim());

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (!tenantId) form.setFieldsValue({ license_type: 'Platform', enable_farm_sync: 'no', expiry_date: dayjs().add(1, 'year') });
  }, [open, tenantId, form]);
  useEffect(() => {
    if (open && tenantId && editing.data) form.setFieldsValue(fromTenant(editing.data.data));
  }, [open, tenantId, editing.data, form]);

  const check = (fields: (keyof TenantFormValues)[]) => async () => {
    try {
      await form.validateFields(fields);
      return true;
    } catch {
      return false;
    }
  };

  const submit = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const body = toTenantBody(form.getFieldsValue(true) as TenantFormValues);
    save.mutate(
      { id: tenantId, body },
      {
        onSuccess: (res) => {
          notifySuccess(tenantId ? t(m.edited) : t(m.created));
          if ('license_key' in res.data && res.data.license_key) setCreatedKey({ name: res.data.name, key: res.data.license_key, changed: Boolean(tenantId) });
          onClose();
        },
      },
    );
  };

  const loadingEdit = Boolean(tenantId) && editing.isLoading;
  const cityOptions = (cities.data?.data ?? []).map((c) => ({ value: c.id, label: c.name }));
  const editCity = tenantId && editing.data?.data.city ? { value: editing.data.data.city_id ?? editing.data.data.city, label: editing.data.data.city } : null;
  const withEditCity = editCity && !cityOptions.some((o) => o.value === editCity.value) ? [editCity, ...cityOptions] : cityOptions;

  return (
    <>
      <LicenseKeyModal
        licenseKey={createdKey?.key ?? null}
        intro={createdKey?.changed ? t(m.newKeyIntro, { name: createdKey.name }) : t(m.keyIntro, { name: createdKey?.name ?? '' })}
        onClose={() => setCreatedKey(null)}
      />
      <Form form={form} layout="vertical" component={false} requiredMark={false}>
        <StepWizard
          open={open}
          title={tenantId ? t(m.editTenant) : t(m.createTenant)}
          submitLabel={tenantId ? t(m.saveChanges) : t(m.createTenant)}
          submitting={save.isPending}
          onCancel={onClose}
          onSubmit={() => void submit()}
          steps={[
            {
              title: t(m.stepOrganization),
              validate: check(['name', 'email', 'phone_number', 'address', 'country_id', 'city']),
              content: loadingEdit ? (
                <Skeleton active />
              ) : (
                <>
                  <Form.Item label={t(m.organizationName)} name="name" rules={[required(m.organizationName), { max: 200 }]}>
                    <Input autoComplete="organization" />
                  </Form.Item>
                  <Form.Item label={t(m.organizationEmail)} name="email" rules={[required(m.organizationEmail), email()]}>
                    <Input autoComplete="email" />
                  </Form.Item>
                  <Form.Item label={t(m.phoneNumber)} name="phone_number" rules={[required(m.phoneNumber)]}>
                    <Input autoComplete="tel" inputMode="tel" />
                  </Form.Item>
                  <Form.Item label={t(m.address)} name="address" rules={[required(m.address), { max: 300 }]}>
                    <Input autoComplete="street-address" />
                  </Form.Item>
                  <Form.Item
                    label={t(m.country)}
                    name="country_id"
                    rules={[{ required: true, message: t(m.isRequired, { label: t(m.country) }) }]}
                    htmlFor="tenant-country"
                  >
                    <Select
                      id="tenant-country"
                      placeholder={t(m.selectCountry)}
                      showSearch={{ optionFilterProp: 'label' }}
                      loading={countries.isLoading}
                      options={(countries.data?.data ?? []).map((c) => ({ value: c.id, label: `${c.flag_emoji} ${c.country_name}` }))}
                      onChange={() => form.setFieldsValue({ state_id: undefined, city: undefined })}
                    />
                  </Form.Item>
                  <Form.Item label={t(m.state)} name="state_id" htmlFor="tenant-state">
                    <Select
                      id="tenant-state"
                      placeholder={countryId ? t(m.selectState) : t(m.countryFirst)}
                      disabled={!countryId}
                      allowClear
                      showSearch={{ optionFilterProp: 'label' }}
                      loading={states.isFetching}
                      options={(states.data?.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
                    />
                  </Form.Item>
                  <Form.Item label={t(m.city)} name="city" rules={[{ required: true, message: t(m.isRequired, { label: t(m.city) }) }]} htmlFor="tenant-city">
                    <Select
                      id="tenant-city"
                      placeholder={countryId ? t(m.searchCity) : t(m.countryFirst)}
                      disabled={!countryId}
                      showSearch={{ filterOption: false, onSearch: setCitySearch }}
                      loading={cities.isFetching}
                      options={withEditCity}
                      notFoundContent={cities.isFetching ? t(m.loading) : t(m.noCity)}
                    />
                  </Form.Item>
                </>
              ),
            },
            {
              title: t(m.stepAdmin),
              validate: check(['admin_first_name', 'admin_last_name', 'admin_email', 'admin_phone_number']),
              content: (
                <>
                  <Form.Item label={t(m.firstName)} name="admin_first_name" rules={[required(m.firstName), { max: 100 }]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                  <Form.Item label={t(m.lastName)} name="admin_last_name" rules={[required(m.lastName), { max: 100 }]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                  <Form.Item label={t(m.adminEmail)} name="admin_email" rules={[required(m.adminEmail), email()]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                  <Form.Item label={t(m.adminPhone)} name="admin_phone_number" rules={[required(m.adminPhone)]}>
                    <Input autoComplete="off" inputMode="tel" />
                  </Form.Item>
                </>
              ),
            },
            {
              title: t(m.stepLicense),
              content: (
                <>
                  <Form.Item label={t(m.licenseType)} name="license_type" rules={[{ required: true, message: t(m.isRequired, { label: t(m.licenseType) }) }]}>
                    <Radio.Group
                      optionType="button"
                      options={[
                        { label: t(m.platform), value: 'Platform' },
                        { label: t(m.sdk), value: 'SDK' },
                      ]}
                    />
                  </Form.Item>
                  <Form.Item
                    label={t(m.expiryDate)}
                    name="expiry_date"
                    rules={[{ required: true, message: t(m.isRequired, { label: t(m.expiryDate) }) }]}
                    htmlFor="tenant-expiry"
                  >
                    <DatePicker id="tenant-expiry" format="DD/MM/YYYY" className="full-width" disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
                  </Form.Item>
                  <Form.Item label={t(m.priceNgn)} name="price" rules={[required(m.price), { pattern: PRICE_RE, message: t(m.priceFormat) }]}>
                    <Input inputMode="decimal" prefix="₦" />
                  </Form.Item>
                  {licenseType === 'SDK' && (
                    <Form.Item label={t(m.syncFarmDetails)} name="enable_farm_sync">
                      <Radio.Group
                        options={[
                          { label: t(m.yes), value: 'yes' },
                          { label: t(m.no), value: 'no' },
                        ]}
                      />
                    </Form.Item>
                  )}
                </>
              ),
            },
          ]}
        />
      </Form>
    </>
  );
}
