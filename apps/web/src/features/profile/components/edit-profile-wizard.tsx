// Edit profile in the three-step wizard: Details (names), Contact (phone, gender), Confirm Entries.
import { useEffect, useState } from 'react';
import Descriptions from 'antd/es/descriptions';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { phoneNumber, type UserProfile } from '@farmland/contracts';
import { StepWizard } from '../../../components/ui/step-wizard';
import { useUpdateProfile, type ProfilePatch } from '../api/update-profile';
import { t } from '../../../i18n';
import { profileText as m } from '../profile.messages';

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
        title={t(m.editProfile)}
        submitLabel={t(m.saveChanges)}
        submitting={update.isPending}
        onCancel={onClose}
        onSubmit={submit}
        steps={[
          {
            title: t(m.stepDetails),
            validate: check(['first_name', 'last_name']),
            content: (
              <>
                <Form.Item
                  label={t(m.firstName)}
                  name="first_name"
                  rules={[{ required: true, whitespace: true, message: t(m.firstNameRequired) }, { max: 100 }]}
                >
                  <Input autoComplete="given-name" />
                </Form.Item>
                <Form.Item label={t(m.lastName)} name="last_name" rules={[{ required: true, whitespace: true, message: t(m.lastNameRequired) }, { max: 100 }]}>
                  <Input autoComplete="family-name" />
                </Form.Item>
              </>
            ),
          },
          {
            title: t(m.stepContact),
            validate: check(['phone_number', 'gender']),
            content: (
              <>
                <Form.Item
                  label={t(m.phone)}
                  name="phone_number"
                  rules={[
                    {
                      validator: async (_r, value: unknown) => {
                        if (typeof value !== 'string' || !value.trim()) return;
                        const parsed = phoneNumber.safeParse(value);
                        if (!parsed.success) throw new Error(t(m.validPhone));
                      },
                    },
                  ]}
                >
                  <Input autoComplete="tel" inputMode="tel" />
                </Form.Item>
                <Form.Item label={t(m.gender)} name="gender" htmlFor="profile-gender">
                  <Select
                    id="profile-gender"
                    allowClear
                    placeholder={t(m.selectGender)}
                    options={[
                      { label: t(m.genderMale), value: 'Male' },
                      { label: t(m.genderFemale), value: 'Female' },
                    ]}
                  />
                </Form.Item>
              </>
            ),
          },
          {
            title: t(m.stepConfirm),
            content: summary && (
              <Descriptions
                column={1}
                bordered
                size="small"
                items={[
                  { key: 'first', label: t(m.firstName), children: summary.first_name },
                  { key: 'last', label: t(m.lastName), children: summary.last_name },
                  { key: 'phone', label: t(m.phone), children: summary.phone_number || '--' },
                  { key: 'gender', label: t(m.gender), children: summary.gender ? t(summary.gender === 'Male' ? m.genderMale : m.genderFemale) : '--' },
                ]}
              />
            ),
          },
        ]}
      />
    </Form>
  );
}
