// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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

export const EVENT_LABELS: Record<WebhookEventType, string> = {
  'analysis.completed': 'Analysis completed',
  'analysis.failed': 'Analysis failed',
  'farm.captured': 'Farm captured',
  'farm.overlap_group_joined': 'Farm joined an overlap group',
  'farm.verdict_changed': 'Farm risk verdict changed',
};

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
    <Modal open={open} title="Add webhook endpoint" onCancel={onClose} okText="Add endpoint" onOk={() => form.submit()} okButtonProps={{ loading: create.isPending }} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ events: ['analysis.completed'] }} requiredMark>
        <Form.Item label="URL" name="url" required extra="An https URL the events are posted to." rules={[{ required: true, message: 'Enter the URL the events are sent to' }]}>
          <Input aria-label="Webhook URL" placeholder="https://example.org/hooks/farmland" />
        </Form.Item>
        <Form.Item label="Events" name="events" required rules={[{ required: true, type: 'array', min: 1, message: 'Choose at least one event' }]}>
          <Checkbox.Group options={WEBHOOK_EVENT_TYPES.map((t) => ({ value: t, label: EVENT_LABELS[t] }))} />
        </Form.Item>
        <Form.Item label="Description" name="description">
          <Input aria-label="Webhook description" maxLength={200} />
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
    return <Alert type="error" showIcon message="The delivery log could not be loaded" action={<Button onClick={() => void log.refetch()}>Try again</Button>} />;
  }
  const { results, count } = log.data.data;
  if (count === 0) return <Empty description="No deliveries yet. Events show here once they are sent; send a test event to try the endpoint." />;
  return (
    <Table<WebhookDelivery>
      size="small"
      rowKey="id"
      data-testid="webhook-deliveries"
      dataSource={results}
      pagination={{ current: page, pageSize: 20, total: count, onChange: setPage, showSizeChanger: false }}
      expandable={{
        expandedRowRender: (d) => (
          <ul aria-label="Attempts">
            {d.history.map((a) => (
              <li key={a.attempt}>
                Attempt {a.attempt}, {formatDateTime(a.at)}: {a.outcome}
                {a.response_code !== null ? ` (${a.response_code})` : ''}, {a.duration_ms} ms{a.error ? ` — ${a.error}` : ''}
              </li>
            ))}
          </ul>
        ),
        rowExpandable: (d) => d.history.length > 0,
      }}
      columns={[
        { title: 'Event', dataIndex: 'event_type', key: 'event_type' },
        { title: 'Status', key: 'status', render: (_v, d) => <StatusTag tone={deliveryTone(d.status)} testId="delivery-status">{d.status}</StatusTag> },
        { title: 'Answer', key: 'code', render: (_v, d) => (d.response_code ?? '--') },
        { title: 'Duration', key: 'ms', render: (_v, d) => (d.duration_ms === null ? '--' : `${d.duration_ms} ms`) },
        { title: 'Attempts', dataIndex: 'attempts', key: 'attempts' },
        { title: 'Next attempt', key: 'next', render: (_v, d) => (d.next_attempt_at ? formatDateTime(d.next_attempt_at) : '--') },
        {
          title: 'Action',
          key: 'action',
          render: (_v, d) => (
            <Button
              size="small"
              disabled={d.status === 'sending'}
              loading={redeliver.isPending && redeliver.variables?.deliveryId === d.id}
              onClick={() =>
                redeliver.mutate({ endpointId: endpoint.id, deliveryId: d.id }, { onSuccess: (res) => notifySuccess(res.message ?? 'Redelivery queued'), onError: notifyError })
              }
            >
              Redeliver
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
      return <Alert type="error" showIcon message="The webhooks could not be loaded" action={<Button onClick={() => void list.refetch()}>Try again</Button>} />;
    }
    const endpoints = list.data.data;
    if (endpoints.length === 0) return <Empty description="No webhook endpoints. Add one to have events posted to your own systems." />;
    return (
      <Table<WebhookEndpoint>
        rowKey="id"
        size="small"
        pagination={false}
        data-testid="webhook-endpoints"
        dataSource={endpoints}
        columns={[
          {
            title: 'URL',
            key: 'url',
            render: (_v, e) => (
              <Space direction="vertical" size={0}>
                <Typography.Text code>{e.url}</Typography.Text>
                {e.description ? <Typography.Text type="secondary">{e.description}</Typography.Text> : null}
              </Space>
            ),
          },
          { title: 'Events', key: 'events', render: (_v, e) => e.events.map((t) => EVENT_LABELS[t]).join(', ') },
          { title: 'Secret', key: 'secret', render: (_v, e) => <Typography.Text type="secondary">{e.secret_hint}</Typography.Text> },
          {
            title: 'Enabled',
            key: 'enabled',
            render: (_v, e) => (
              <Switch
                checked={e.enabled}
                aria-label={`${e.enabled ? 'Disable' : 'Enable'} ${e.url}`}
                loading={update.isPending && update.variables?.id === e.id}
                onChange={(on) => update.mutate({ id: e.id, body: { enabled: on } }, { onSuccess: () => notifySuccess(on ? 'Webhook endpoint enabled' : 'Webhook endpoint disabled'), onError: notifyError })}
              />
            ),
          },
          {
            title: 'Action',
            key: 'action',
            render: (_v, e) => (
              <Space wrap>
                <Button size="small" onClick={() => setViewing(e)}>
                  Deliveries
                </Button>
                <Button size="small" loading={test.isPending && test.variables === e.id} onClick={() => test.mutate(e.id, { onSuccess: (res) => notifySuccess(res.message ?? 'Test event queued'), onError: notifyError })}>
                  Send test
                </Button>
                <Button size="small" danger onClick={() => setDeleting(e)}>
                  Delete
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
      title="Webhooks"
      data-testid="webhooks"
      extra={
        <Button type="primary" onClick={() => setAdding(true)}>
          Add endpoint
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        Events are posted as signed JSON (Standard Webhooks: webhook-id, webhook-timestamp and webhook-signature headers), and retried for about a day while the receiver fails.
      </Typography.Paragraph>
      {body()}
      <AddEndpointModal
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={(s) => {
          setAdding(false);
          setSecret(s);
          notifySuccess('Webhook endpoint registered');
        }}
      />
      <SecretOnceModal secret={secret} title="Signing secret" intro="Your receiver checks each event's signature with this secret." onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete webhook endpoint"
        danger
        confirmLabel="Delete"
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
        Events will no longer be sent to {deleting?.url}, and its delivery log is removed.
      </ConfirmDialog>
      <SideDrawer open={viewing !== null} title={viewing ? `Deliveries: ${viewing.url}` : 'Deliveries'} onClose={() => setViewing(null)} width={760}>
        {viewing ? <DeliveryLog endpoint={viewing} /> : null}
      </SideDrawer>
    </Card>
  );
}
