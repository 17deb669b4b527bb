// "Upload Farmlands Data" (docs/requirements.md §2, §4, §5): the drop zone, 'Download Template', 'Start Analysis' (disabled until a file
// is chosen), an 'or' divider and 'Upload via Endpoint'. Both paths go through the drawers in order: 'Analysis Details'
// (title, description, the EUDR reference layers to screen against, and for a file the optional farm name property of GIS files), 'Operational Areas' (select-all with an indeterminate state; region and search clear the
// selection; Reset), then 'Proceed to Analyse' for a file, or the 'Endpoint Upload' drawer for JSON.
import { useMemo, useState } from 'react';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Checkbox from 'antd/es/checkbox';
import Divider from 'antd/es/divider';
import Empty from 'antd/es/empty';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import { MAX_ANALYSIS_LAYERS } from '@farmland/contracts';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { UploadZone } from '../../../components/ui/upload-zone';
import { firstFieldError } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useCreateAnalysis } from '../api/create-analysis';
import { useReferenceLayerOptions } from '../api/get-reference-layers';
import { LAYER_KIND_LABEL } from '../../../components/eudr/eudr-labels';
import { downloadTemplate } from '../api/download-template';
import { useOperationalAreaOptions, useRegions } from '../../../lib/lookups';
import { EndpointUploadDrawer } from './endpoint-upload-drawer';
import { t } from '../../../i18n';
import { analysesText as m } from '../analyses.messages';

/** The drop zone's limits (docs/requirements.md §5, §9): the API checks them again and is the authority. */
export const ANALYSIS_FILE_TYPES = ['.csv', '.xls', '.xlsx', '.geojson', '.json', '.kml', '.kmz', '.zip', '.gpkg'] as const;
export const ANALYSIS_MAX_BYTES = 3_145_728;

type Step = 'details' | 'areas' | 'endpoint' | null;

export function AnalysisUpload() {
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<'file' | 'endpoint'>('file');
  const [step, setStep] = useState<Step>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [nameField, setNameField] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [layerIds, setLayerIds] = useState<string[]>([]);
  const create = useCreateAnalysis();
  const layers = useReferenceLayerOptions(step === 'details');

  const reset = () => {
    setStep(null);
    setName('');
    setDescription('');
    setNameField('');
    setSelected([]);
    setLayerIds([]);
  };

  const submitFile = () => {
    if (!file) return;
    create.mutate(
      {
        kind: 'file',
        file,
        options: { name: name.trim(), description: description.trim(), operationalAreas: selected, nameField: nameField.trim(), referenceLayerIds: layerIds },
      },
      {
        onSuccess: (res) => {
          notifySuccess(res.message ?? t(m.uploadSuccess));
          setFile(null);
          reset();
        },
        onError: (err) => {
          // A server error on the file is a toast (docs/requirements.md §5); the drawers close so the user can choose another file.
          notifyError(err);
          if (firstFieldError(err, 'file') !== null) reset();
        },
      },
    );
  };

  return (
    <Card title={t(m.uploadTitle)} data-testid="analysis-upload">
      <UploadZone
        file={file}
        onChange={setFile}
        accept={ANALYSIS_FILE_TYPES}
        maxBytes={ANALYSIS_MAX_BYTES}
        hint={t(m.fileHint, { mb: String(ANALYSIS_MAX_BYTES / 1024 / 1024) })}
        testId="analysis-drop-zone"
      />
      <Space className="mt-16 full-width justify-between" wrap>
        <Space wrap>
          <Button onClick={() => void downloadTemplate('csv').catch(notifyError)}>{t(m.downloadTemplate)}</Button>
          <Button onClick={() => void downloadTemplate('geojson').catch(notifyError)}>{t(m.geojsonTemplate)}</Button>
        </Space>
        <Button
          type="primary"
          disabled={!file}
          onClick={() => {
            setMode('file');
            setStep('details');
          }}
        >
          {t(m.startAnalysis)}
        </Button>
      </Space>
      <Divider plain>{t(m.or)}</Divider>
      <Button
        block
        onClick={() => {
          setMode('endpoint');
          setStep('details');
        }}
      >
        {t(m.uploadViaEndpoint)}
      </Button>

      <SideDrawer
        open={step === 'details'}
        title={t(m.detailsTitle)}
        onClose={reset}
        footer={
          <Button type="primary" onClick={() => setStep('areas')}>
            {t(m.continue)}
          </Button>
        }
      >
        <label className="block mb-16">
          <div className="mb-4">{t(m.title)}</div>
          <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} placeholder={t(m.titlePlaceholder)} aria-label={t(m.title)} />
        </label>
        <label className="block">
          <div className="mb-4">{t(m.description)}</div>
          <Input.TextArea value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} rows={4} aria-label={t(m.description)} />
        </label>
        <label className="block mt-16">
          <div className="mb-4">{t(m.layersLabel)}</div>
          <Select
            mode="multiple"
            allowClear
            className="full-width"
            aria-label={t(m.layersAria)}
            data-testid="reference-layer-select"
            placeholder={t(layers.isError ? m.layersLoadFailed : m.layersPlaceholder)}
            loading={layers.isLoading}
            maxCount={MAX_ANALYSIS_LAYERS}
            value={layerIds}
            onChange={(v: string[]) => setLayerIds(v)}
            optionFilterProp="label"
            notFoundContent={layers.isLoading ? <Skeleton active paragraph={false} /> : <Empty description={t(m.noLayers)} />}
            options={(layers.data ?? []).map((l) => ({
              value: l.id,
              label: t(l.owner === 'provider' ? m.layerOptionProvider : m.layerOption, { name: l.name, kind: LAYER_KIND_LABEL[l.kind] }),
            }))}
          />
          <div className="text-muted small mt-4" data-testid="reference-layer-help">
            {t(m.layersHelp)}
          </div>
        </label>
        {mode === 'file' && (
          <label className="block mt-16">
            <div className="mb-4">{t(m.nameFieldLabel)}</div>
            <Input
              value={nameField}
              onChange={(e) => setNameField(e.target.value)}
              maxLength={200}
              placeholder={t(m.nameFieldPlaceholder)}
              aria-label={t(m.nameFieldAria)}
            />
            <div className="text-muted small mt-4" data-testid="name-field-help">
              {t(m.nameFieldHelp)}
            </div>
          </label>
        )}
      </SideDrawer>

      <AreasDrawer
        open={step === 'areas'}
        selected={selected}
        onSelect={setSelected}
        onClose={reset}
        onBack={() => setStep('details')}
        proceedLabel={t(mode === 'file' ? m.proceed : m.continue)}
        proceeding={create.isPending}
        onProceed={() => (mode === 'file' ? submitFile() : setStep('endpoint'))}
      />

      <EndpointUploadDrawer
        open={step === 'endpoint'}
        onClose={reset}
        values={{ name: name.trim(), description: description.trim(), operationalAreas: selected, referenceLayerIds: layerIds }}
        onUploaded={reset}
      />
    </Card>
  );
}

type AreasProps = {
  open: boolean;
  selected: string[];
  onSelect: (ids: string[]) => void;
  onClose: () => void;
  onBack: () => void;
  onProceed: () => void;
  proceedLabel: string;
  proceeding: boolean;
};

/** 'Operational Areas': which areas the analysis counts; changing the region or the search clears the selection. */
function AreasDrawer({ open, selected, onSelect, onClose, onBack, onProceed, proceedLabel, proceeding }: AreasProps) {
  const [region, setRegion] = useState<string | undefined>(undefined);
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim());
  const regions = useRegions(open);
  const areas = useOperationalAreaOptions({ region, search: debounced || undefined }, open);
  const ids = useMemo(() => (areas.data ?? []).map((a) => a.id), [areas.data]);
  const all = ids.length > 0 && ids.every((id) => selected.includes(id));
  const some = selected.length > 0 && !all;

  return (
    <SideDrawer
      open={open}
      title={t(m.areasTitle)}
      onClose={onClose}
      footer={
        <Space>
          <Button onClick={onBack}>{t(m.back)}</Button>
          <Button type="primary" disabled={selected.length === 0} loading={proceeding} onClick={onProceed}>
            {proceedLabel}
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" className="full-width">
        <Select
          allowClear
          placeholder={t(m.filterRegion)}
          aria-label={t(m.region)}
          className="full-width"
          value={region}
          loading={regions.isLoading}
          options={(regions.data?.data.results ?? []).map((r) => ({ value: r.id, label: r.name }))}
          onChange={(v: string | undefined) => {
            setRegion(v);
            onSelect([]);
          }}
        />
        <Input.Search
          placeholder={t(m.searchAreas)}
          aria-label={t(m.searchAreas)}
          value={search}
          allowClear
          onChange={(e) => {
            setSearch(e.target.value);
            onSelect([]);
          }}
        />
        <Button
          type="link"
          className="flush"
          onClick={() => {
            setRegion(undefined);
            setSearch('');
            onSelect([]);
          }}
        >
          {t(m.reset)}
        </Button>
        {areas.isLoading ? (
          <Skeleton active />
        ) : ids.length === 0 ? (
          <Empty description={t(m.noAreas)} />
        ) : (
          <>
            <Checkbox indeterminate={some} checked={all} onChange={(e) => onSelect(e.target.checked ? ids : [])}>
              {t(m.selectAll, { count: String(ids.length) })}
            </Checkbox>
            <Checkbox.Group
              className="stack gap-8"
              value={selected}
              onChange={(v) => onSelect(v)}
              options={(areas.data ?? []).map((a) => ({ value: a.id, label: `${a.name}${a.region ? ` · ${a.region}` : ''}` }))}
            />
          </>
        )}
      </Space>
    </SideDrawer>
  );
}
