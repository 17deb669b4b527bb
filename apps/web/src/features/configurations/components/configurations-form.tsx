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
import { formatDateTime, formatNumber } from '../../../lib/formatters';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { useConfiguration, useSaveConfiguration } from '../api/tenant-configuration';
import { currentLocale, t } from '../../../i18n';
import { configurationsText as m } from '../configurations.messages';
import { Inline, Muted } from '../../../components/ui/layout';

type Values = { minimum_farm_size: string; recognition_threshold: string; overlap_min_area_sqm: string; overlap_min_share_percent: string };
const FORM_FIELDS: readonly (keyof Values)[] = ['minimum_farm_size', 'recognition_threshold', 'overlap_min_area_sqm', 'overlap_min_share_percent'];

/**
 * A number typed by a person: thousands separators and spaces allowed; anything else is not a number. In French the
 * comma is the decimal separator (0,5) and spaces group thousands (1 000); a point is read as a decimal point in both.
 */
export function readNumber(text: string): number | null {
  const clean = currentLocale() === 'fr' ? text.replace(/\s/g, '').replace(',', '.') : text.replace(/[,\s]/g, '');
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(clean)) return null;
  return Number(clean);
}

export function minimumSizeProblem(text: string): string | null {
  const n = readNumber(text ?? '');
  if (n === null) return t(m.sizeNotNumber);
  if (n < 0) return t(m.sizeNegative);
  if (n > 1e9) return t(m.sizeTooLarge, { max: formatNumber(1e9) });
  return null;
}

export function thresholdProblem(text: string): string | null {
  const n = readNumber(text ?? '');
  if (n === null) return t(m.thresholdNotNumber, { example: formatNumber(0.5) });
  if (n <= 0) return t(m.thresholdNotPositive);
  if (n > 1) return t(m.thresholdTooLarge);
  return null;
}

export function overlapAreaProblem(text: string): string | null {
  const n = readNumber(text ?? '');
  if (n === null) return t(m.overlapNotNumber);
  if (n < 0) return t(m.overlapNegative);
  if (n > 1e9) return t(m.overlapTooLarge, { max: formatNumber(1e9) });
  return null;
}

export function overlapSharePercentProblem(text: string): string | null {
  const n = readNumber(text ?? '');
  if (n === null) return t(m.shareNotNumber);
  if (n < 0) return t(m.shareNegative);
  if (n > 100) return t(m.shareTooLarge);
  return null;
}

/** A plain number as a person of the page's language types it: a decimal comma in French (0,5). */
export const typed = (plain: string) => (currentLocale() === 'fr' ? plain.replace('.', ',') : plain);

/** A share (0–1) as the percentage the form shows, without float noise (0.01 → "1"). */
export const sharePercent = (share: number) => String(Math.round(share * 100 * 1e6) / 1e6);

const rule = (check: (v: string) => string | null) => ({
  validator: (_r: unknown, v: string) => (check(v) ? Promise.reject(new Error(check(v)!)) : Promise.resolve()),
});

export function ConfigurationsForm() {
  const config = useConfiguration();
  const save = useSaveConfiguration();
  const [form] = Form.useForm<Values>();
  const data = config.data?.data;

  useEffect(() => {
    if (data) {
      form.setFieldsValue({
        minimum_farm_size: typed(String(data.minimum_farm_size)),
        recognition_threshold: typed(String(data.recognition_threshold)),
        overlap_min_area_sqm: typed(String(data.overlap_min_area_sqm)),
        overlap_min_share_percent: typed(sharePercent(data.overlap_min_share)),
      });
    }
  }, [data, form]);

  if (config.isLoading) return <Skeleton active />;
  if (config.isError || !data) {
    return <Alert type="error" showIcon message={t(m.loadFailed)} action={<Button onClick={() => void config.refetch()}>{t(m.tryAgain)}</Button>} />;
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
        onSuccess: (res) => notifySuccess(res.message ?? t(m.saved)),
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
    <Card title={t(m.title)} className="narrow-card" data-testid="configurations">
      <Form form={form} layout="vertical" onFinish={submit} requiredMark>
        <Form.Item label={t(m.minSize)} name="minimum_farm_size" extra={t(m.minSizeHelp)} rules={[rule(minimumSizeProblem)]} required>
          <Input inputMode="decimal" aria-label={t(m.minSizeAria)} />
        </Form.Item>
        <Form.Item label={t(m.threshold)} name="recognition_threshold" extra={t(m.thresholdHelp)} rules={[rule(thresholdProblem)]} required>
          <Input inputMode="decimal" aria-label={t(m.threshold)} />
        </Form.Item>
        <Form.Item label={t(m.overlapArea)} name="overlap_min_area_sqm" extra={t(m.overlapAreaHelp)} rules={[rule(overlapAreaProblem)]} required>
          <Input inputMode="decimal" aria-label={t(m.overlapAreaAria)} />
        </Form.Item>
        <Form.Item label={t(m.overlapShare)} name="overlap_min_share_percent" extra={t(m.overlapShareHelp)} rules={[rule(overlapSharePercentProblem)]} required>
          <Input inputMode="decimal" aria-label={t(m.overlapShareAria)} />
        </Form.Item>
        <Inline gap={0} justify="between">
          <Muted>{t(m.lastChanged, { date: formatDateTime(data.updated_at) })}</Muted>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t(m.save)}
          </Button>
        </Inline>
      </Form>
    </Card>
  );
}
