// Add or edit an agent in the three-step wizard (docs/requirements.md §2, §4): Details (photo, names, email, phone, gender), Assign
// location (a region narrows the list, then the operational area), Confirm Entries. Multipart; the API's field errors
// land on their fields and are toasted, naming the field.
import { useEffect, useMemo, useRef, useState } from 'react';
import { UserOutlined } from '@ant-design/icons';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Upload from 'antd/es/upload';
import { createAgentBody, type Agent } from '@farmland/contracts';
import { formFieldErrors } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { StepWizard } from '../../../components/ui/step-wizard';
import { useAgent } from '../api/get-agent';
import { useOperationalAreaOptions, useRegions } from '../../../lib/lookups';
import { useSaveAgent, type AgentFields } from '../api/save-agent';
import { t } from '../../../i18n';
import { agentsText as m } from '../agents.messages';

type Values = AgentFields & { region?: string | undefined };
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** A gender as the page's language says it; the stored value (Male, Female) stays as it is, and anything else shows as sent. */
export function genderLabel(gender: string | null | undefined): string {
  if (gender === 'Male') return t(m.male);
  if (gender === 'Female') return t(m.female);
  return gender ?? '--';
}

/** A form rule from the contract's own field schema, so the wizard says what the API would. */
const contractRule = (field: keyof typeof createAgentBody.shape) => ({
  validator: async (_r: unknown, value: unknown) => {
    const parsed = createAgentBody.shape[field].safeParse(typeof value === 'string' ? value : undefined);
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? t(m.invalidValue));
  },
});

export function AgentWizard({ open, agentId, onClose }: { open: boolean; agentId: string | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const editing = useAgent(open ? agentId : null);
  const save = useSaveAgent();
  const regions = useRegions();
  const region = Form.useWatch('region', form);
  const areas = useOperationalAreaOptions({ region });
  const [image, setImage] = useState<File | null>(null);
  const [summary, setSummary] = useState<Values | null>(null);
  const preview = useMemo(() => (image ? URL.createObjectURL(image) : null), [image]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const agent: Agent | undefined = agentId ? editing.data?.data : undefined;
  // The fields are filled once per opening (and once the edited agent has loaded), never again while the user types.
  const filledFor = useRef<string | null>(null);
  useEffect(() => {
    if (!open) {
      filledFor.current = null;
      return;
    }
    const key = agentId ? (agent ? agent.id : null) : 'new';
    if (key === null || filledFor.current === key) return;
    filledFor.current = key;
    setImage(null);
    setSummary(null);
    form.resetFields();
    if (agent)
      form.setFieldsValue({
        first_name: agent.first_name,
        last_name: agent.last_name,
        email: agent.email,
        phone_number: agent.phone_number ?? '',
        ...(agent.gender === 'Male' || agent.gender === 'Female' ? { gender: agent.gender } : {}),
        ...(agent.operational_area_id ? { operational_area_id: agent.operational_area_id } : {}),
      });
  }, [open, agentId, agent, form]);

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
    const fields: AgentFields = {
      first_name: v.first_name,
      last_name: v.last_name,
      email: v.email,
      phone_number: v.phone_number,
      gender: v.gender,
      operational_area_id: v.operational_area_id,
    };
    save.mutate(
      { id: agentId, fields, image },
      {
        onSuccess: () => {
          notifySuccess(agentId ? t(m.edited) : t(m.created));
          onClose();
        },
        onError: (err) => {
          form.setFields(
            formFieldErrors(err, [
              'first_name',
              'last_name',
              'email',
              'phone_number',
              'gender',
              'operational_area_id',
            ] as const satisfies readonly (keyof Values)[]),
          );
        },
      },
    );
  };

  const areaName = (id?: string) => areas.data?.find((a) => a.id === id)?.name ?? agent?.operational_area ?? '--';
  const loadingAgent = Boolean(agentId) && editing.isLoading;

  return (
    <Form form={form} layout="vertical" component={false}>
      <StepWizard
        open={open}
        title={agentId ? t(m.editAgent) : t(m.addNewAgent)}
        submitLabel={agentId ? t(m.saveChanges) : t(m.createAgent)}
        submitting={save.isPending}
        onCancel={onClose}
        onSubmit={submit}
        steps={[
          {
            title: t(m.stepDetails),
            validate: check(['first_name', 'last_name', 'email', 'phone_number', 'gender']),
            content: loadingAgent ? (
              <div role="status">{t(m.loadingAgent)}</div>
            ) : (
              <>
                <div className="inline gap-12 mb-16">
                  <Avatar size={56} src={preview ?? agent?.image ?? undefined} icon={<UserOutlined />} alt="" />
                  <Upload
                    accept={IMAGE_TYPES.join(',')}
                    showUploadList={false}
                    beforeUpload={(f) => {
                      if (IMAGE_TYPES.includes(f.type)) setImage(f);
                      else notifyError(new Error(t(m.imageTypes)));
                      return false;
                    }}
                  >
                    <Button>{image || agent?.image ? t(m.changePhoto) : t(m.addPhoto)}</Button>
                  </Upload>
                  {image && <span className="text-muted">{image.name}</span>}
                </div>
                <div className="form-pair">
                  <Form.Item label={t(m.firstName)} name="first_name" required rules={[contractRule('first_name')]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                  <Form.Item label={t(m.lastName)} name="last_name" required rules={[contractRule('last_name')]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                  <Form.Item label={t(m.email)} name="email" required rules={[contractRule('email')]}>
                    <Input type="email" autoComplete="off" />
                  </Form.Item>
                  <Form.Item label={t(m.phoneNumber)} name="phone_number" required rules={[contractRule('phone_number')]}>
                    <Input inputMode="tel" autoComplete="off" />
                  </Form.Item>
                  <Form.Item label={t(m.gender)} name="gender" htmlFor="agent-gender">
                    <Select
                      id="agent-gender"
                      allowClear
                      placeholder={t(m.selectGender)}
                      options={[
                        { label: t(m.male), value: 'Male' },
                        { label: t(m.female), value: 'Female' },
                      ]}
                    />
                  </Form.Item>
                </div>
              </>
            ),
          },
          {
            title: t(m.stepLocation),
            validate: check(['operational_area_id']),
            content: (
              <>
                <Form.Item label={t(m.region)} name="region" htmlFor="agent-region" extra={t(m.regionHint)}>
                  <Select
                    id="agent-region"
                    allowClear
                    placeholder={t(m.allRegions)}
                    loading={regions.isLoading}
                    onChange={() => form.setFieldValue('operational_area_id', undefined)}
                    options={(regions.data?.data.results ?? []).map((r) => ({ label: `${r.name} (${r.country})`, value: r.id }))}
                  />
                </Form.Item>
                <Form.Item label={t(m.operationalArea)} name="operational_area_id" htmlFor="agent-area">
                  <Select
                    id="agent-area"
                    allowClear
                    showSearch={{ optionFilterProp: 'label' }}
                    placeholder={t(m.selectArea)}
                    loading={areas.isLoading}
                    notFoundContent={areas.isLoading ? t(m.loadingOptions) : t(m.noAreas)}
                    options={(areas.data ?? []).map((a) => ({ label: a.name, value: a.id }))}
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
                data-testid="agent-confirm"
                items={[
                  { key: 'photo', label: t(m.photo), children: image ? image.name : agent?.image ? t(m.unchanged) : '--' },
                  { key: 'first', label: t(m.firstName), children: summary.first_name },
                  { key: 'last', label: t(m.lastName), children: summary.last_name },
                  { key: 'email', label: t(m.email), children: summary.email },
                  { key: 'phone', label: t(m.phoneNumber), children: summary.phone_number },
                  { key: 'gender', label: t(m.gender), children: genderLabel(summary.gender) },
                  { key: 'area', label: t(m.operationalArea), children: summary.operational_area_id ? areaName(summary.operational_area_id) : '--' },
                ]}
              />
            ),
          },
        ]}
      />
    </Form>
  );
}
