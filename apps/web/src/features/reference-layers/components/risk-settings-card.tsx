// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The tenant's plot-risk thresholds (docs/decisions/0072-eudr-plot-risk.md), beside the layers they apply to: the
// minimum overlap in m² (smaller is digitising noise) and three shares of the plot, shown in %: forest at the 2020
// cut-off above which a plot needs review, and tree-cover loss and protected area above which it is high risk (0 %:
// any overlap above the minimum). A change applies at once to every verdict. Checked here, and by the API.
import { useEffect } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Skeleton from 'antd/es/skeleton';
import { PLOT_RISK_DEFAULTS, type PlotRiskSettings } from '@farmland/contracts';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { formatNumber } from '../../../lib/formatters';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { useRiskSettings, useSaveRiskSettings } from '../api/risk-settings';

type Values = { eudr_min_overlap_sqm: string; eudr_forest_review_share: string; eudr_loss_high_share: string; eudr_protected_high_share: string };
const SHARES = ['eudr_forest_review_share', 'eudr_loss_high_share', 'eudr_protected_high_share'] as const;
const FIELDS: readonly (keyof Values)[] = ['eudr_min_overlap_sqm', ...SHARES];

/** A number typed by a person (thousands separators and spaces allowed), or null. */
export function readNumber(text: string | undefined): number | null {
  const clean = (text ?? '').replace(/[,\s]/g, '');
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(clean)) return null;
  return Number(clean);
}

export function areaProblem(text: string | undefined): string | null {
  const n = readNumber(text);
  if (n === null) return 'Enter a number of square metres, such as 10';
  if (n < 0) return 'The minimum overlap area cannot be negative';
  if (n > 1e9) return 'The minimum overlap area must be at most 1,000,000,000 m²';
  return null;
}

export function percentProblem(text: string | undefined): string | null {
  const n = readNumber(text);
  if (n === null) return 'Enter a percentage between 0 and 100, such as 1';
  if (n < 0) return 'A share cannot be negative';
  if (n > 100) return 'A share must be at most 100 %';
  return null;
}

/** 0.01 → "1" (no float noise). */
const percent = (share: number) => String(Math.round(share * 100 * 1e6) / 1e6);
const rule = (check: (v: string | undefined) => string | null) => ({ validator: (_r: unknown, v: string | undefined) => (check(v) ? Promise.reject(new Error(check(v)!)) : Promise.resolve()) });

const toForm = (s: PlotRiskSettings): Values => ({
  eudr_min_overlap_sqm: String(s.eudr_min_overlap_sqm),
  eudr_forest_review_share: percent(s.eudr_forest_review_share),
  eudr_loss_high_share: percent(s.eudr_loss_high_share),
  eudr_protected_high_share: percent(s.eudr_protected_high_share),
});

export function RiskSettingsCard() {
  const settings = useRiskSettings();
  const save = useSaveRiskSettings();
  const [form] = Form.useForm<Values>();
  const data = settings.data?.data;

  useEffect(() => {
    if (data) form.setFieldsValue(toForm(data));
  }, [data, form]);

  const submit = (v: Values) =>
    save.mutate(
      {
        eudr_min_overlap_sqm: readNumber(v.eudr_min_overlap_sqm)!,
        eudr_forest_review_share: readNumber(v.eudr_forest_review_share)! / 100,
        eudr_loss_high_share: readNumber(v.eudr_loss_high_share)! / 100,
        eudr_protected_high_share: readNumber(v.eudr_protected_high_share)! / 100,
      },
      {
        onSuccess: (res) => notifySuccess(res.message ?? 'Plot-risk thresholds updated'),
        onError: (err) => {
          const placed = fieldErrorsOf(err)
            .filter((e) => (FIELDS as readonly string[]).includes(e.field))
            .map((e) => ({ name: e.field as keyof Values, errors: e.messages }));
          if (placed.length) form.setFields(placed);
          else notifyError(err);
        },
      },
    );

  return (
    <Card title="Plot-risk thresholds" className="mt-16" data-testid="risk-settings">
      {settings.isLoading && <Skeleton active />}
      {settings.isError && (
        <Alert type="error" showIcon title="The plot-risk thresholds could not be loaded" action={<Button onClick={() => void settings.refetch()}>Try again</Button>} />
      )}
      {data && (
        <Form form={form} layout="vertical" onFinish={submit} requiredMark className="narrow-form">
          <p className="text-muted mb-16">
            How each farm&apos;s overlap with the layers above becomes its EUDR verdict. A change applies at once to every farm.
          </p>
          <Form.Item
            label="Minimum overlap (m²)"
            name="eudr_min_overlap_sqm"
            required
            rules={[rule(areaProblem)]}
            extra={`A smaller overlap counts as none: digitising noise along shared edges (default ${formatNumber(PLOT_RISK_DEFAULTS.eudr_min_overlap_sqm)} m²).`}
          >
            <Input inputMode="decimal" aria-label="Minimum overlap" />
          </Form.Item>
          <Form.Item
            label="Forest cover 2020: needs review above (%)"
            name="eudr_forest_review_share"
            required
            rules={[rule(percentProblem)]}
            extra={`Forest at the 2020 cut-off over this share of the plot makes it 'Needs review' (default ${percent(PLOT_RISK_DEFAULTS.eudr_forest_review_share)} %).`}
          >
            <Input inputMode="decimal" aria-label="Forest cover review share" />
          </Form.Item>
          <Form.Item
            label="Tree-cover loss: high risk above (%)"
            name="eudr_loss_high_share"
            required
            rules={[rule(percentProblem)]}
            extra="Tree-cover loss after 2020 over this share makes the plot 'High risk' (0 %: any loss above the minimum overlap)."
          >
            <Input inputMode="decimal" aria-label="Tree-cover loss high share" />
          </Form.Item>
          <Form.Item
            label="Protected area: high risk above (%)"
            name="eudr_protected_high_share"
            required
            rules={[rule(percentProblem)]}
            extra="A protected area over this share makes the plot 'High risk' (0 %: any overlap above the minimum)."
          >
            <Input inputMode="decimal" aria-label="Protected area high share" />
          </Form.Item>
          <div className="inline-12">
            <Button onClick={() => form.setFieldsValue(toForm(PLOT_RISK_DEFAULTS))}>Restore defaults</Button>
            <div className="grow" />
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              Save
            </Button>
          </div>
        </Form>
      )}
    </Card>
  );
}
