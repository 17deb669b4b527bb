// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// /admin/configurations: the tenant's minimum farm size (farms below it are not analysed, and the endpoint upload is
// prefilled with it), the recognition threshold (how much of a farm the registry must cover for the farm to count as
// recognised) and the overlap tolerance (issue 28: the minimum overlap area in sqm and share of the smaller farm, in %,
// below which a pair is a sliver: shown, never grouped; saving a new one re-groups the registry). Checked here for a
// clear message, and again by the API, which is the authority.
import { useEffect } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Skeleton from 'antd/es/skeleton';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/formatters';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { useConfiguration, useSaveConfiguration } from '../api/tenant-configuration';

type Values = { minimum_farm_size: string; recognition_threshold: string; overlap_min_area_sqm: string; overlap_min_share_percent: string };
const FORM_FIELDS: readonly (keyof Values)[] = ['minimum_farm_size', 'recognition_threshold', 'overlap_min_area_sqm', 'overlap_min_share_percent'];

/** A number typed by a person: thousands separators and spaces allowed; anything else is not a number. */
export function readNumber(text: string): number | null {
  const clean = text.replace(/[,\s]/g, '');
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(clean)) return null;
  return Number(clean);
}

export function minimumSizeProblem(text: string): string | null {
  const n = readNumber(text ?? '');
  if (n === null) return 'Enter a number of square metres, such as 100';
  if (n < 0) return 'Minimum farm size cannot be negative';
  if (n > 1e9) return 'Minimum farm size must be at most 1,000,000,000 sqm';
  return null;
}

export function thresholdProblem(text: string): string | null {
  const n = readNumber(text ?? '');
  if (n === null) return 'Enter a number between 0 and 1, such as 0.5';
  if (n <= 0) return 'The recognition threshold must be greater than 0';
  if (n > 1) return 'The recognition threshold must be at most 1';
  return null;
}

export function overlapAreaProblem(text: string): string | null {
  const n = readNumber(text ?? '');
  if (n === null) return 'Enter a number of square metres, such as 1';
  if (n < 0) return 'The minimum overlap area cannot be negative';
  if (n > 1e9) return 'The minimum overlap area must be at most 1,000,000,000 sqm';
  return null;
}

export function overlapSharePercentProblem(text: string): string | null {
  const n = readNumber(text ?? '');
  if (n === null) return 'Enter a percentage between 0 and 100, such as 1';
  if (n < 0) return 'The minimum overlap share cannot be negative';
  if (n > 100) return 'The minimum overlap share must be at most 100 %';
  return null;
}

/** A share (0–1) as the percentage the form shows, without float noise (0.01 → "1"). */
export const sharePercent = (share: number) => String(Math.round(share * 100 * 1e6) / 1e6);

const rule = (check: (v: string) => string | null) => ({ validator: (_r: unknown, v: string) => (check(v) ? Promise.reject(new Error(check(v)!)) : Promise.resolve()) });

export function ConfigurationsForm() {
  const config = useConfiguration();
  const save = useSaveConfiguration();
  const [form] = Form.useForm<Values>();
  const data = config.data?.data;

  useEffect(() => {
    if (data) {
      form.setFieldsValue({
        minimum_farm_size: String(data.minimum_farm_size),
        recognition_threshold: String(data.recognition_threshold),
        overlap_min_area_sqm: String(data.overlap_min_area_sqm),
        overlap_min_share_percent: sharePercent(data.overlap_min_share),
      });
    }
  }, [data, form]);

  if (config.isLoading) return <Skeleton active />;
  if (config.isError || !data) {
    return <Alert type="error" showIcon message="The configuration could not be loaded" action={<Button onClick={() => void config.refetch()}>Try again</Button>} />;
  }

  const submit = (v: Values) =>
    save.mutate(
      {
        minimum_farm_size: readNumber(v.minimum_farm_size)!,
        recognition_threshold: readNumber(v.recognition_threshold)!,
        overlap_min_area_sqm: readNumber(v.overlap_min_area_sqm)!,
        overlap_min_share: readNumber(v.overlap_min_share_percent)! / 100,
      },
      {
        onSuccess: (res) => notifySuccess(res.message ?? 'Configuration updated successfully'),
        onError: (err) => {
          // Field errors from the API go next to their fields (the share is shown in %); anything else to the notifier.
          const placed = fieldErrorsOf(err)
            .map((e) => ({ name: (e.field === 'overlap_min_share' ? 'overlap_min_share_percent' : e.field) as keyof Values, errors: e.messages }))
            .filter((e) => FORM_FIELDS.includes(e.name));
          if (placed.length > 0) form.setFields(placed);
          else notifyError(err);
        },
      },
    );

  return (
    <Card title="Configurations" style={{ maxWidth: 640 }} data-testid="configurations">
      <Form form={form} layout="vertical" onFinish={submit} requiredMark>
        <Form.Item
          label="Minimum farm size (sqm)"
          name="minimum_farm_size"
          extra="Farmlands smaller than this are not analysed; the endpoint upload starts from this value."
          rules={[rule(minimumSizeProblem)]}
          required
        >
          <Input inputMode="decimal" aria-label="Minimum farm size" />
        </Form.Item>
        <Form.Item
          label="Recognition threshold"
          name="recognition_threshold"
          extra="The share of a farm (0 to 1) that registered farms must cover for it to count as recognised."
          rules={[rule(thresholdProblem)]}
          required
        >
          <Input inputMode="decimal" aria-label="Recognition threshold" />
        </Form.Item>
        <Form.Item
          label="Minimum overlap area (sqm)"
          name="overlap_min_area_sqm"
          extra="Two farms overlap when their shared area reaches this and the share below; smaller overlaps are digitising slivers: shown as 'touching or sliver', never grouped."
          rules={[rule(overlapAreaProblem)]}
          required
        >
          <Input inputMode="decimal" aria-label="Minimum overlap area" />
        </Form.Item>
        <Form.Item
          label="Minimum overlap share (%)"
          name="overlap_min_share_percent"
          extra="The share of the smaller farm the overlap must cover. Saving a new tolerance re-groups the farm registry."
          rules={[rule(overlapSharePercentProblem)]}
          required
        >
          <Input inputMode="decimal" aria-label="Minimum overlap share" />
        </Form.Item>
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <span style={{ color: 'rgba(0,0,0,0.62)' }}>Last changed {formatDateTime(data.updated_at)}</span>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            Save
          </Button>
        </div>
      </Form>
    </Card>
  );
}
