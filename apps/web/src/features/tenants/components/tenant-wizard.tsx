// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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
import { TENANT_CREATED, TENANT_EDITED, useSaveTenant } from '../api/save-tenant';
import { fromTenant, PRICE_RE, toTenantBody, type TenantFormValues } from './tenant-form';

type Props = { open: boolean; tenantId: string | null; onClose: () => void };

const EMAIL = { type: 'email' as const, message: 'Enter a valid email address' };
const required = (label: string) => ({ required: true, whitespace: true, message: `${label} is required` });

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
          notifySuccess(tenantId ? TENANT_EDITED : TENANT_CREATED);
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
        intro={createdKey?.changed ? `The new license of ${createdKey.name} has a new key; the old license is revoked.` : `The license key of ${createdKey?.name ?? ''}.`}
        onClose={() => setCreatedKey(null)}
      />
      <Form form={form} layout="vertical" component={false} requiredMark={false}>
        <StepWizard
          open={open}
          title={tenantId ? 'Edit Tenant' : 'Create Tenant'}
          submitLabel={tenantId ? 'Save changes' : 'Create Tenant'}
          submitting={save.isPending}
          onCancel={onClose}
          onSubmit={() => void submit()}
          steps={[
            {
              title: 'Organization Information',
              validate: check(['name', 'email', 'phone_number', 'address', 'country_id', 'city']),
              content: loadingEdit ? (
                <Skeleton active />
              ) : (
                <>
                  <Form.Item label="Organization name" name="name" rules={[required('Organization name'), { max: 200 }]}>
                    <Input autoComplete="organization" />
                  </Form.Item>
                  <Form.Item label="Organization email" name="email" rules={[required('Organization email'), EMAIL]}>
                    <Input autoComplete="email" />
                  </Form.Item>
                  <Form.Item label="Phone number" name="phone_number" rules={[required('Phone number')]}>
                    <Input autoComplete="tel" inputMode="tel" />
                  </Form.Item>
                  <Form.Item label="Address" name="address" rules={[required('Address'), { max: 300 }]}>
                    <Input autoComplete="street-address" />
                  </Form.Item>
                  <Form.Item label="Country" name="country_id" rules={[{ required: true, message: 'Country is required' }]} htmlFor="tenant-country">
                    <Select
                      id="tenant-country"
                      placeholder="Select country"
                      showSearch={{ optionFilterProp: 'label' }}
                      loading={countries.isLoading}
                      options={(countries.data?.data ?? []).map((c) => ({ value: c.id, label: `${c.flag_emoji} ${c.country_name}` }))}
                      onChange={() => form.setFieldsValue({ state_id: undefined, city: undefined })}
                    />
                  </Form.Item>
                  <Form.Item label="State" name="state_id" htmlFor="tenant-state">
                    <Select
                      id="tenant-state"
                      placeholder={countryId ? 'Select state' : 'Choose a country first'}
                      disabled={!countryId}
                      allowClear
                      showSearch={{ optionFilterProp: 'label' }}
                      loading={states.isFetching}
                      options={(states.data?.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
                    />
                  </Form.Item>
                  <Form.Item label="City" name="city" rules={[{ required: true, message: 'City is required' }]} htmlFor="tenant-city">
                    <Select
                      id="tenant-city"
                      placeholder={countryId ? 'Search city' : 'Choose a country first'}
                      disabled={!countryId}
                      showSearch={{ filterOption: false, onSearch: setCitySearch }}
                      loading={cities.isFetching}
                      options={withEditCity}
                      notFoundContent={cities.isFetching ? 'Loading…' : 'No city found'}
                    />
                  </Form.Item>
                </>
              ),
            },
            {
              title: 'Admin Information',
              validate: check(['admin_first_name', 'admin_last_name', 'admin_email', 'admin_phone_number']),
              content: (
                <>
                  <Form.Item label="First name" name="admin_first_name" rules={[required('First name'), { max: 100 }]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                  <Form.Item label="Last name" name="admin_last_name" rules={[required('Last name'), { max: 100 }]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                  <Form.Item label="Admin email" name="admin_email" rules={[required('Admin email'), EMAIL]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                  <Form.Item label="Admin phone number" name="admin_phone_number" rules={[required('Admin phone number')]}>
                    <Input autoComplete="off" inputMode="tel" />
                  </Form.Item>
                </>
              ),
            },
            {
              title: 'License Information',
              content: (
                <>
                  <Form.Item label="License type" name="license_type" rules={[{ required: true, message: 'License type is required' }]}>
                    <Radio.Group
                      optionType="button"
                      options={[
                        { label: 'Platform', value: 'Platform' },
                        { label: 'SDK', value: 'SDK' },
                      ]}
                    />
                  </Form.Item>
                  <Form.Item label="Expiry date" name="expiry_date" rules={[{ required: true, message: 'Expiry date is required' }]} htmlFor="tenant-expiry">
                    <DatePicker id="tenant-expiry" format="DD/MM/YYYY" className="full-width" disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
                  </Form.Item>
                  <Form.Item
                    label="Price (NGN)"
                    name="price"
                    rules={[required('Price'), { pattern: PRICE_RE, message: 'Enter an amount such as 220,000 or 220000.50' }]}
                  >
                    <Input inputMode="decimal" prefix="₦" />
                  </Form.Item>
                  {licenseType === 'SDK' && (
                    <Form.Item label="Sync farm details" name="enable_farm_sync">
                      <Radio.Group
                        options={[
                          { label: 'Yes', value: 'yes' },
                          { label: 'No', value: 'no' },
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
