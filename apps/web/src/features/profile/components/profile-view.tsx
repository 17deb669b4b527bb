// The Profile screen: who you are (photo, names, contact, role, organisation, two-factor, last sign-in), with Edit
// profile (three-step wizard), a new photo, Change password and Reset two-factor (after a confirmation), and the
// console's language (English or French, remembered on this device).
import { useState } from 'react';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Result from 'antd/es/result';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import Upload from 'antd/es/upload';
import { CameraOutlined, EditOutlined, LockOutlined, SafetyOutlined } from '@ant-design/icons';
import type { RoleName } from '@farmland/contracts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatDate, formatDateTime } from '../../../lib/formatters';
import { chooseLocale, currentLocale, LOCALES, t, type Locale } from '../../../i18n';
import { languageNames, profileText as m } from '../profile.messages';
import { useProfile } from '../api/get-profile';
import { useResetTwoFactor } from '../api/reset-two-factor';
import { useUploadProfileImage } from '../api/upload-profile-image';
import { ChangePasswordModal } from './change-password-modal';
import { EditProfileWizard } from './edit-profile-wizard';
import './profile.css';

const ROLE_LABELS = { super_admin: m.roleSuperAdmin, tenant_admin: m.roleTenantAdmin, agent: m.roleAgent } satisfies Record<RoleName, unknown>;
export const IMAGE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

export function ProfileView({ userId }: { userId: string }) {
  const profile = useProfile(userId);
  const upload = useUploadProfileImage();
  const resetMfa = useResetTwoFactor(userId);
  const [editing, setEditing] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);

  if (profile.isPending)
    return (
      <Card>
        <Skeleton avatar active paragraph={{ rows: 6 }} />
      </Card>
    );
  if (profile.isError)
    return (
      <Result
        status="warning"
        title={t(m.loadFailed)}
        extra={
          <Button type="primary" onClick={() => void profile.refetch()}>
            {t(m.tryAgain)}
          </Button>
        }
      />
    );

  const p = profile.data.data;
  const name = `${p.first_name} ${p.last_name}`.trim();
  return (
    <>
      <Typography.Title level={1} className="page-heading">
        {t(m.title)}
      </Typography.Title>
      <Card>
        <div className="inline gap-32 wrap align-stretch">
          <div className="profile-photo">
            <Avatar size={112} src={p.image ?? undefined} alt={p.image ? t(m.photoOf, { name }) : undefined} className="profile-avatar">
              {`${p.first_name.charAt(0)}${p.last_name.charAt(0)}`.toUpperCase()}
            </Avatar>
            <Upload
              accept={IMAGE_TYPES}
              showUploadList={false}
              customRequest={({ file }) => {
                if (file instanceof File) upload.mutate(file);
              }}
            >
              <Button icon={<CameraOutlined aria-hidden="true" />} loading={upload.isPending}>
                {t(m.changePhoto)}
              </Button>
            </Upload>
          </div>
          <div className="profile-details">
            <Typography.Title level={2} className="section-heading mt-0" data-testid="profile-name" translate="no">
              {name}
            </Typography.Title>
            <Descriptions
              column={{ xs: 1, md: 2 }}
              size="small"
              items={[
                { key: 'email', label: t(m.email), children: <span translate="no">{p.email}</span> },
                { key: 'phone', label: t(m.phone), children: p.phone_number ?? '--' },
                {
                  key: 'gender',
                  label: t(m.gender),
                  children: p.gender === 'Male' ? t(m.genderMale) : p.gender === 'Female' ? t(m.genderFemale) : (p.gender ?? '--'),
                },
                { key: 'role', label: t(m.role), children: t(ROLE_LABELS[p.role]) },
                { key: 'org', label: t(m.organisation), children: p.tenant ? <span translate="no">{p.tenant.name}</span> : t(m.serviceProvider) },
                {
                  key: 'mfa',
                  label: t(m.twoFactor),
                  children: p.mfa_enabled ? <Tag color="green">{t(m.twoFactorEnabled)}</Tag> : <Tag color="orange">{t(m.twoFactorNotSetUp)}</Tag>,
                },
                { key: 'last', label: t(m.lastSignIn), children: formatDateTime(p.last_login_at) },
                { key: 'since', label: t(m.memberSince), children: formatDate(p.created_at) },
                {
                  key: 'language',
                  label: t(m.language),
                  children: (
                    <Select<Locale>
                      aria-label={t(m.language)}
                      data-testid="profile-language"
                      value={currentLocale()}
                      onChange={chooseLocale}
                      options={LOCALES.map((l) => ({ value: l, label: <span lang={l}>{languageNames[l]}</span> }))}
                      className="profile-language"
                    />
                  ),
                },
              ]}
            />
            <Space wrap className="mt-16">
              <Button type="primary" icon={<EditOutlined aria-hidden="true" />} onClick={() => setEditing(true)}>
                {t(m.editProfile)}
              </Button>
              <Button icon={<LockOutlined aria-hidden="true" />} onClick={() => setChangingPassword(true)}>
                {t(m.changePassword)}
              </Button>
              <Button danger icon={<SafetyOutlined aria-hidden="true" />} onClick={() => setConfirmReset(true)} disabled={!p.mfa_enabled}>
                {t(m.resetTwoFactor)}
              </Button>
            </Space>
          </div>
        </div>
      </Card>
      <EditProfileWizard profile={p} open={editing} onClose={() => setEditing(false)} />
      <ChangePasswordModal open={changingPassword} onClose={() => setChangingPassword(false)} />
      <ConfirmDialog
        open={confirmReset}
        title={t(m.resetTwoFactorTitle)}
        confirmLabel={t(m.reset)}
        danger
        loading={resetMfa.isPending}
        onCancel={() => setConfirmReset(false)}
        onConfirm={() => resetMfa.mutate(undefined, { onSettled: () => setConfirmReset(false) })}
      >
        {t(m.resetTwoFactorBody)}
      </ConfirmDialog>
    </>
  );
}
