// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// Edit profile in the three-step wizard: Details (names), Contact (phone, gender), Confirm Entries.
import { useEffect, useState } from 'react';
import Descriptions from 'antd/es/descriptions';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { phoneNumber, type UserProfile } from '@farmland/contracts';
import { StepWizard } from '../../../components/ui/step-wizard';
import { useUpdateProfile, type ProfilePatch } from '../api/update-profile';

type Values = { first_name: string; last_name: string; phone_number?: string; gender?: 'Male' | 'Female' };

export function EditProfileWizard({ profile, open, onClose }: { profile: UserProfile; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const update = useUpdateProfile(profile.id);
  const [summary, setSummary] = useState<Values | null>(null);

  useEffect(() => {
    if (open)
      form.setFieldsValue({
        first_name: profile.first_name,
        last_name: profile.last_name,
        phone_number: profile.phone_number ?? '',
        ...(profile.gender === 'Male' || profile.gender === 'Female' ? { gender: profile.gender } : {}),
      });
  }, [open, profile, form]);

  const check = (fields: (keyof Values)[]) => async () => {
    try {
      await form.validateFields(fields);
      setSummary(form.getFieldsValue(true) as Values);
      return true;
    } catch {
      return false;
    }
  };

  const submit = () => {
    const v = form.getFieldsValue(true) as Values;
    const body: ProfilePatch = {
      first_name: v.first_name.trim(),
      last_name: v.last_name.trim(),
      phone_number: v.phone_number?.trim() ? v.phone_number.trim() : null,
      gender: v.gender ?? null,
    };
    update.mutate(body, { onSuccess: onClose });
  };

  return (
    <Form form={form} layout="vertical" component={false}>
      <StepWizard
        open={open}
        title="Edit profile"
        submitLabel="Save changes"
        submitting={update.isPending}
        onCancel={onClose}
        onSubmit={submit}
        steps={[
          {
            title: 'Details',
            validate: check(['first_name', 'last_name']),
            content: (
              <>
                <Form.Item label="First name" name="first_name" rules={[{ required: true, whitespace: true, message: 'First name is required' }, { max: 100 }]}>
                  <Input autoComplete="given-name" />
                </Form.Item>
                <Form.Item label="Last name" name="last_name" rules={[{ required: true, whitespace: true, message: 'Last name is required' }, { max: 100 }]}>
                  <Input autoComplete="family-name" />
                </Form.Item>
              </>
            ),
          },
          {
            title: 'Contact',
            validate: check(['phone_number', 'gender']),
            content: (
              <>
                <Form.Item
                  label="Phone number"
                  name="phone_number"
                  rules={[
                    {
                      validator: async (_r, value: unknown) => {
                        if (typeof value !== 'string' || !value.trim()) return;
                        const parsed = phoneNumber.safeParse(value);
                        if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Enter a valid phone number');
                      },
                    },
                  ]}
                >
                  <Input autoComplete="tel" inputMode="tel" />
                </Form.Item>
                <Form.Item label="Gender" name="gender" htmlFor="profile-gender">
                  <Select
                    id="profile-gender"
                    allowClear
                    placeholder="Select gender"
                    options={[
                      { label: 'Male', value: 'Male' },
                      { label: 'Female', value: 'Female' },
                    ]}
                  />
                </Form.Item>
              </>
            ),
          },
          {
            title: 'Confirm Entries',
            content: summary && (
              <Descriptions
                column={1}
                bordered
                size="small"
                items={[
                  { key: 'first', label: 'First name', children: summary.first_name },
                  { key: 'last', label: 'Last name', children: summary.last_name },
                  { key: 'phone', label: 'Phone number', children: summary.phone_number || '--' },
                  { key: 'gender', label: 'Gender', children: summary.gender ?? '--' },
                ]}
              />
            ),
          },
        ]}
      />
    </Form>
  );
}
