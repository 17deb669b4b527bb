// 'Endpoint Upload' (docs/requirements.md §4, §5): a JSON payload (a list of locations, or an object with locations and any of name,
// description, operational_areas, minimum_farm_size, require_farm_recognition) merged with the drawers' values. 'Validate
// Code' is disabled while the text is empty; a parse error names its line and column. Minimum land size is prefilled
// from the tenant configuration and shown with thousands separators; 'Validate farmland recognition' is on by default.
import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Tooltip from 'antd/es/tooltip';
import { InfoCircleOutlined } from '@ant-design/icons';
import type { CreateAnalysisBody } from '@farmland/contracts';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { errorMessages, notifyError, notifySuccess } from '../../../lib/notifier';
import { useCreateAnalysis, type AnalysisOptions } from '../api/create-analysis';
import { useTenantConfiguration } from '../api/get-analysis-options';
import { t } from '../../../i18n';
import { analysesText as m } from '../analyses.messages';
import './analyses.css';

/** An example payload: code, the same in every language. */
const PAYLOAD_EXAMPLE = '[\n  { "farm_name": "Farm 1", "farm_coordinates": [[3.77, 7.64], [3.771, 7.64], [3.771, 7.641]] }\n]';

type Props = { open: boolean; onClose: () => void; values: AnalysisOptions; onUploaded: () => void };

/** Where a JSON.parse error is, as line and column (from the position V8 reports). */
export function jsonErrorAt(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const at = /position (\d+)/.exec(message);
  if (!at) return t(m.jsonInvalid, { message });
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return t(m.jsonInvalidAt, { line, column, message: message.replace(/\s*(in JSON )?at position \d+.*$/, '') });
}

/** The request body: the payload's own values, with the drawers' values and this form's taking precedence. */
export function mergePayload(
  parsed: unknown,
  values: AnalysisOptions,
  minimumFarmSize: number | null,
  requireRecognition: boolean,
): CreateAnalysisBody | string {
  const base: Record<string, unknown> = Array.isArray(parsed) ? { locations: parsed } : parsed && typeof parsed === 'object' ? { ...parsed } : {};
  if (!Array.isArray(base['locations'])) return t(m.needLocations);
  return {
    ...(base as CreateAnalysisBody),
    ...(values.name ? { name: values.name } : {}),
    ...(values.description ? { description: values.description } : {}),
    ...(values.operationalAreas.length > 0 ? { operational_areas: [...values.operationalAreas] } : {}),
    ...((values.referenceLayerIds?.length ?? 0) > 0 ? { reference_layer_ids: [...values.referenceLayerIds!] } : {}),
    ...(minimumFarmSize !== null ? { minimum_farm_size: minimumFarmSize } : {}),
    require_farm_recognition: requireRecognition,
  };
}

export function EndpointUploadDrawer({ open, onClose, values, onUploaded }: Props) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string[] | null>(null);
  // The minimum size the user typed; until then (or once cleared) the configuration's, once it arrives.
  const [minSizeTyped, setMinSize] = useState<number | null>(null);
  const [recognition, setRecognition] = useState(true);
  const config = useTenantConfiguration(open);
  const create = useCreateAnalysis();

  const minSize = minSizeTyped ?? (open && config.data ? config.data.data.minimum_farm_size : null);

  const close = () => {
    setText('');
    setProblem(null);
    setMinSize(null);
    setRecognition(true);
    onClose();
  };

  const submit = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      setProblem([jsonErrorAt(text, err)]);
      return;
    }
    const body = mergePayload(parsed, values, minSize, recognition);
    if (typeof body === 'string') {
      setProblem([body]);
      return;
    }
    setProblem(null);
    create.mutate(
      { kind: 'json', body },
      {
        onSuccess: (res) => {
          notifySuccess(res.message ?? t(m.uploadSuccess));
          close();
          onUploaded();
        },
        onError: (err) => {
          setProblem(errorMessages(err));
          notifyError(err);
        },
      },
    );
  };

  return (
    <SideDrawer
      open={open}
      title={t(m.endpointTitle)}
      width={560}
      onClose={close}
      footer={
        <Button type="primary" disabled={text.trim() === '' || minSize === null} loading={create.isPending} onClick={submit}>
          {t(m.validateCode)}
        </Button>
      }
    >
      <Space direction="vertical" className="full-width" size="middle">
        <label className="block">
          <div className="mb-4">
            <Tooltip title={t(m.minSizeTooltip)}>
              <span>
                {t(m.minSizeLabel)} <InfoCircleOutlined />
              </span>
            </Tooltip>
          </div>
          <InputNumber<number>
            aria-label={t(m.minSizeAria)}
            className="full-width"
            min={0}
            value={minSize}
            onChange={(v) => setMinSize(v)}
            formatter={(v) => (v === undefined || v === null || `${v}` === '' ? '' : `${v}`.replace(/\B(?=(\d{3})+(?!\d))/g, ','))}
            parser={(v) => Number((v ?? '').replace(/,/g, ''))}
          />
        </label>
        <Space>
          <Switch checked={recognition} onChange={setRecognition} aria-label={t(m.recognition)} />
          <span>{t(m.recognition)}</span>
        </Space>
        <label className="block">
          <div className="mb-4">{t(m.payload)}</div>
          <Input.TextArea
            aria-label={t(m.payload)}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={14}
            spellCheck={false}
            className="mono"
            placeholder={PAYLOAD_EXAMPLE}
          />
        </label>
        {problem && (
          <Alert
            type="error"
            showIcon
            message={
              problem.length === 1 ? (
                problem[0]
              ) : (
                <ul className="problem-list">
                  {problem.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              )
            }
            data-testid="endpoint-problem"
          />
        )}
      </Space>
    </SideDrawer>
  );
}
