// The Webhooks section of /admin/configurations (issue 32, part 3; an addition to the spec's screen, see
// docs/decisions/0075-webhooks.md): the tenant's endpoints with their events and state, adding one (URL and events; the
// signing secret is shown once, with a copy button), enabling or disabling, sending a test event, deleting after a
// confirmation, and each endpoint's delivery log in the side drawer, where a delivery can be sent again.
import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Checkbox from 'antd/es/checkbox';
import Empty from 'antd/es/empty';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType } from '@farmland/contracts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SecretOnceModal } from '../../../components/ui/copy-key';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { StatusTag } from '../../../components/ui/status-tag';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/formatters';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { useCreateWebhook } from '../api/create-webhook';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useWebhooks } from '../api/list-webhooks';
import { useRedeliverWebhook } from '../api/redeliver-webhook';
import { useTestWebhook } from '../api/test-webhook';
import { useUpdateWebhook } from '../api/update-webhook';
import { useWebhookDeliveries } from '../api/webhook-deliveries';
import { t, type Text } from '../../../i18n';
import { configurationsText as m, deliveryWord } from '../configurations.messages';

const EVENT_TEXT: Record<WebhookEventType, Text> = {
  'analysis.completed': m.eventAnalysisCompleted,
  'analysis.failed': m.eventAnalysisFailed,
  'farm.captured': m.eventFarmCaptured,
  'farm.overlap_group_joined': m.eventOverlapJoined,
  'farm.verdict_changed': m.eventVerdictChanged,
};

/** An event type in words. */
export const eventLabel = (type: WebhookEventType): string => t(EVENT_TEXT[type]);

type AddValues = { url: string; events: WebhookEventType[]; description?: string };

function AddEndpointModal({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (secret: string) => void }) {
  const [form] = Form.useForm<AddValues>();
  const create = useCreateWebhook();
  const submit = (v: AddValues) =>
    create.mutate(
      { url: v.url.trim(), events: v.events, ...(v.description?.trim() ? { description: v.description.trim() } : {}) },
      {
        onSuccess: (res) => {
          form.resetFields();
          onCreated(res.data.secret);
        },
        onError: (err) => {
          const placed = fieldErrorsOf(err)
            .map((e) => ({ name: (e.field.startsWith('events') ? 'events' : e.field) as keyof AddValues, errors: e.messages }))
            .filter((e) => ['url', 'events', 'description'].includes(e.name));
          if (placed.length > 0) form.setFields(placed);
          else notifyError(err);
        },
      },
    );
  return (
    <Modal
      open={open}
      title={t(m.addTitle)}
      onCancel={onClose}
      okText={t(m.addEndpoint)}
      onOk={() => form.submit()}
      okButtonProps={{ loading: create.isPending }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ events: ['analysis.completed'] }} requiredMark>
        <Form.Item label={t(m.url)} name="url" required extra={t(m.urlHelp)} rules={[{ required: true, message: t(m.urlRequired) }]}>
          <Input aria-label={t(m.urlAria)} placeholder={t(m.urlPlaceholder)} />
        </Form.Item>
        <Form.Item label={t(m.events)} name="events" required rules={[{ required: true, type: 'array', min: 1, message: t(m.eventsRequired) }]}>
          <Checkbox.Group options={WEBHOOK_EVENT_TYPES.map((type) => ({ value: type, label: eventLabel(type) }))} />
        </Form.Item>
        <Form.Item label={t(m.description)} name="description">
          <Input aria-label={t(m.descriptionAria)} maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const deliveryTone = (s: WebhookDelivery['status']) => (s === 'succeeded' ? 'good' : s === 'failed' ? 'bad' : 'neutral');

function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [page, setPage] = useState(1);
  const log = useWebhookDeliveries(endpoint.id, page);
  const redeliver = useRedeliverWebhook();
  if (log.isLoading) return <Skeleton active />;
  if (log.isError || !log.data) {
    return <Alert type="error" showIcon message={t(m.logLoadFailed)} action={<Button onClick={() => void log.refetch()}>{t(m.tryAgain)}</Button>} />;
  }
  const { results, count } = log.data.data;
  if (count === 0) return <Empty description={t(m.noDeliveries)} />;
  return (
    <Table<WebhookDelivery>
      size="small"
      rowKey="id"
      data-testid="webhook-deliveries"
      dataSource={results}
      pagination={{ current: page, pageSize: 20, total: count, onChange: setPage, showSizeChanger: false }}
      expandable={{
        expandedRowRender: (d) => (
          <ul aria-label={t(m.attempts)}>
            {d.history.map((a) => (
              <li key={a.attempt}>
                {t(m.attemptLine, {
                  attempt: String(a.attempt),
                  date: formatDateTime(a.at),
                  outcome: t(deliveryWord[a.outcome]),
                  code: a.response_code !== null ? ` (${a.response_code})` : '',
                  ms: String(a.duration_ms),
                  error: a.error ? ` — ${a.error}` : '',
                })}
              </li>
            ))}
          </ul>
        ),
        rowExpandable: (d) => d.history.length > 0,
      }}
      columns={[
        { title: t(m.event), dataIndex: 'event_type', key: 'event_type' },
        {
          title: t(m.status),
          key: 'status',
          render: (_v, d) => (
            <StatusTag tone={deliveryTone(d.status)} testId="delivery-status">
              {t(deliveryWord[d.status])}
            </StatusTag>
          ),
        },
        { title: t(m.answer), key: 'code', render: (_v, d) => d.response_code ?? '--' },
        { title: t(m.duration), key: 'ms', render: (_v, d) => (d.duration_ms === null ? '--' : t(m.ms, { ms: String(d.duration_ms) })) },
        { title: t(m.attempts), dataIndex: 'attempts', key: 'attempts' },
        { title: t(m.nextAttempt), key: 'next', render: (_v, d) => (d.next_attempt_at ? formatDateTime(d.next_attempt_at) : '--') },
        {
          title: t(m.action),
          key: 'action',
          render: (_v, d) => (
            <Button
              size="small"
              disabled={d.status === 'sending'}
              loading={redeliver.isPending && redeliver.variables?.deliveryId === d.id}
              onClick={() =>
                redeliver.mutate(
                  { endpointId: endpoint.id, deliveryId: d.id },
                  { onSuccess: (res) => notifySuccess(res.message ?? t(m.redeliveryQueued)), onError: notifyError },
                )
              }
            >
              {t(m.redeliver)}
            </Button>
          ),
        },
      ]}
    />
  );
}

export function WebhooksSection() {
  const list = useWebhooks();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const test = useTestWebhook();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [viewing, setViewing] = useState<WebhookEndpoint | null>(null);

  const body = () => {
    if (list.isLoading) return <Skeleton active />;
    if (list.isError || !list.data) {
      return <Alert type="error" showIcon message={t(m.listLoadFailed)} action={<Button onClick={() => void list.refetch()}>{t(m.tryAgain)}</Button>} />;
    }
    const endpoints = list.data.data;
    if (endpoints.length === 0) return <Empty description={t(m.noEndpoints)} />;
    return (
      <Table<WebhookEndpoint>
        rowKey="id"
        size="small"
        pagination={false}
        data-testid="webhook-endpoints"
        dataSource={endpoints}
        columns={[
          {
            title: t(m.url),
            key: 'url',
            render: (_v, e) => (
              <Space direction="vertical" size={0}>
                <Typography.Text code>{e.url}</Typography.Text>
                {e.description ? <Typography.Text type="secondary">{e.description}</Typography.Text> : null}
              </Space>
            ),
          },
          { title: t(m.events), key: 'events', render: (_v, e) => e.events.map(eventLabel).join(', ') },
          { title: t(m.secret), key: 'secret', render: (_v, e) => <Typography.Text type="secondary">{e.secret_hint}</Typography.Text> },
          {
            title: t(m.enabled),
            key: 'enabled',
            render: (_v, e) => (
              <Switch
                checked={e.enabled}
                aria-label={t(e.enabled ? m.disableUrl : m.enableUrl, { url: e.url })}
                loading={update.isPending && update.variables?.id === e.id}
                onChange={(on) =>
                  update.mutate(
                    { id: e.id, body: { enabled: on } },
                    { onSuccess: () => notifySuccess(t(on ? m.endpointEnabled : m.endpointDisabled)), onError: notifyError },
                  )
                }
              />
            ),
          },
          {
            title: t(m.action),
            key: 'action',
            render: (_v, e) => (
              <Space wrap>
                <Button size="small" onClick={() => setViewing(e)}>
                  {t(m.deliveries)}
                </Button>
                <Button
                  size="small"
                  loading={test.isPending && test.variables === e.id}
                  onClick={() => test.mutate(e.id, { onSuccess: (res) => notifySuccess(res.message ?? t(m.testQueued)), onError: notifyError })}
                >
                  {t(m.sendTest)}
                </Button>
                <Button size="small" danger onClick={() => setDeleting(e)}>
                  {t(m.delete)}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    );
  };

  return (
    <Card
      title={t(m.webhooksTitle)}
      data-testid="webhooks"
      extra={
        <Button type="primary" onClick={() => setAdding(true)}>
          {t(m.addEndpoint)}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t(m.webhooksIntro)}</Typography.Paragraph>
      {body()}
      <AddEndpointModal
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={(s) => {
          setAdding(false);
          setSecret(s);
          notifySuccess(t(m.registered));
        }}
      />
      <SecretOnceModal secret={secret} title={t(m.secretTitle)} intro={t(m.secretIntro)} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t(m.deleteTitle)}
        danger
        confirmLabel={t(m.delete)}
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: (res) => {
              setDeleting(null);
              notifySuccess(res.message);
            },
            onError: notifyError,
          })
        }
      >
        {t(m.deleteBody, { url: deleting?.url ?? '' })}
      </ConfirmDialog>
      <SideDrawer
        open={viewing !== null}
        title={viewing ? t(m.deliveriesOf, { url: viewing.url }) : t(m.deliveries)}
        onClose={() => setViewing(null)}
        width={760}
      >
        {viewing ? <DeliveryLog endpoint={viewing} /> : null}
      </SideDrawer>
    </Card>
  );
}
