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
import { currentLocale, t } from '../../../i18n';
import { referenceLayersText as m } from '../reference-layers.messages';

type Values = { eudr_min_overlap_sqm: string; eudr_forest_review_share: string; eudr_loss_high_share: string; eudr_protected_high_share: string };
const SHARES = ['eudr_forest_review_share', 'eudr_loss_high_share', 'eudr_protected_high_share'] as const;
const FIELDS: readonly (keyof Values)[] = ['eudr_min_overlap_sqm', ...SHARES];

/** A number typed by a person (thousands separators and spaces allowed; in French, 0,5 and 1 000), or null. */
export function readNumber(text: string | undefined): number | null {
  const clean = currentLocale() === 'fr' ? (text ?? '').replace(/\s/g, '').replace(',', '.') : (text ?? '').replace(/[,\s]/g, '');
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(clean)) return null;
  return Number(clean);
}

export function areaProblem(text: string | undefined): string | null {
  const n = readNumber(text);
  if (n === null) return t(m.areaNotNumber);
  if (n < 0) return t(m.areaNegative);
  if (n > 1e9) return t(m.areaTooLarge, { max: formatNumber(1e9) });
  return null;
}

export function percentProblem(text: string | undefined): string | null {
  const n = readNumber(text);
  if (n === null) return t(m.percentNotNumber);
  if (n < 0) return t(m.shareNegative);
  if (n > 100) return t(m.shareTooLarge);
  return null;
}

/** A plain number as a person of the page's language types it: a decimal comma in French (0,5). */
const typed = (plain: string) => (currentLocale() === 'fr' ? plain.replace('.', ',') : plain);

/** 0.01 → "1" (no float noise). */
const percent = (share: number) => String(Math.round(share * 100 * 1e6) / 1e6);
const rule = (check: (v: string | undefined) => string | null) => ({
  validator: (_r: unknown, v: string | undefined) => (check(v) ? Promise.reject(new Error(check(v)!)) : Promise.resolve()),
});

const toForm = (s: PlotRiskSettings): Values => ({
  eudr_min_overlap_sqm: typed(String(s.eudr_min_overlap_sqm)),
  eudr_forest_review_share: typed(percent(s.eudr_forest_review_share)),
  eudr_loss_high_share: typed(percent(s.eudr_loss_high_share)),
  eudr_protected_high_share: typed(percent(s.eudr_protected_high_share)),
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
        onSuccess: (res) => notifySuccess(res.message ?? t(m.thresholdsSaved)),
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
    <Card title={t(m.thresholdsTitle)} className="mt-16" data-testid="risk-settings">
      {settings.isLoading && <Skeleton active />}
      {settings.isError && (
        <Alert type="error" showIcon title={t(m.thresholdsLoadFailed)} action={<Button onClick={() => void settings.refetch()}>{t(m.tryAgain)}</Button>} />
      )}
      {data && (
        <Form form={form} layout="vertical" onFinish={submit} requiredMark className="narrow-form">
          <p className="text-muted mb-16">{t(m.thresholdsIntro)}</p>
          <Form.Item
            label={t(m.minOverlap)}
            name="eudr_min_overlap_sqm"
            required
            rules={[rule(areaProblem)]}
            extra={t(m.minOverlapHelp, { value: formatNumber(PLOT_RISK_DEFAULTS.eudr_min_overlap_sqm) })}
          >
            <Input inputMode="decimal" aria-label={t(m.minOverlapAria)} />
          </Form.Item>
          <Form.Item
            label={t(m.forestShare)}
            name="eudr_forest_review_share"
            required
            rules={[rule(percentProblem)]}
            extra={t(m.forestShareHelp, { value: formatNumber(Number(percent(PLOT_RISK_DEFAULTS.eudr_forest_review_share))) })}
          >
            <Input inputMode="decimal" aria-label={t(m.forestShareAria)} />
          </Form.Item>
          <Form.Item label={t(m.lossShare)} name="eudr_loss_high_share" required rules={[rule(percentProblem)]} extra={t(m.lossShareHelp)}>
            <Input inputMode="decimal" aria-label={t(m.lossShareAria)} />
          </Form.Item>
          <Form.Item label={t(m.protectedShare)} name="eudr_protected_high_share" required rules={[rule(percentProblem)]} extra={t(m.protectedShareHelp)}>
            <Input inputMode="decimal" aria-label={t(m.protectedShareAria)} />
          </Form.Item>
          <div className="inline-12">
            <Button onClick={() => form.setFieldsValue(toForm(PLOT_RISK_DEFAULTS))}>{t(m.restoreDefaults)}</Button>
            <div className="grow" />
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t(m.save)}
            </Button>
          </div>
        </Form>
      )}
    </Card>
  );
}
