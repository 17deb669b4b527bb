// Upload a reference layer, or replace one's file: the details (name, kind, reference date, source, licence, and the
// optional feature property that names each feature) and the file in the one upload widget (GeoJSON, KML, KMZ, a
// zipped Shapefile or a GeoPackage). After the API takes it (202) the drawer follows the background job: its status and progress, and
// the reader's error with the feature number when the load fails. The list behind shows the same progress.
import { useEffect, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import DatePicker from 'antd/es/date-picker';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Result from 'antd/es/result';
import Select from 'antd/es/select';
import dayjs, { type Dayjs } from 'dayjs';
import { REFERENCE_LAYER_KINDS, type ReferenceLayer, type ReferenceLayerKind } from '@farmland/contracts';
import { LAYER_KIND_LABEL } from '../../../components/eudr/eudr-labels';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { UploadZone } from '../../../components/ui/upload-zone';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { DATE_FORMAT, formatNumber } from '../../../lib/formatters';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import type { LayerScope } from '../api/layer-scope';
import { useLayerProgress } from '../api/get-layer-progress';
import { useUploadReferenceLayer } from '../api/upload-reference-layer';
import { LayerStatus } from './layer-status';
import { t } from '../../../i18n';
import { referenceLayersText as m } from '../reference-layers.messages';

/** GeoJSON (.geojson or .json), KML, KMZ, a zipped Shapefile or a GeoPackage; the API checks the content again. */
export const LAYER_ACCEPT = ['.geojson', '.json', '.kml', '.kmz', '.zip', '.gpkg'] as const;
/** The API's upload limit by default (UPLOAD_LIMIT_BYTES, 3 MiB); a larger file is refused there too (413 on file). */
export const LAYER_MAX_BYTES = 3_145_728;

type Values = { name: string; kind: ReferenceLayerKind | undefined; reference_date: Dayjs | null; source: string; licence: string; name_field: string };
const FIELDS = ['name', 'kind', 'reference_date', 'source', 'licence', 'name_field'] as const;

/** The layer kinds as select options (a function: the labels are read in the page's language). */
export const kindOptions = () => REFERENCE_LAYER_KINDS.map((k) => ({ value: k, label: LAYER_KIND_LABEL[k] }));

type Props = {
  open: boolean;
  scope: LayerScope;
  /** The layer whose file is replaced; null to upload a new layer. Mount the drawer anew for each opening (a key). */
  replacing: ReferenceLayer | null;
  onClose: () => void;
};

export function LayerUploadDrawer({ open, scope, replacing, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  // The screen mounts the drawer afresh for each opening, so a replaced layer's details are its initial values.
  const initial: Partial<Values> | undefined = replacing
    ? { name: replacing.name, kind: replacing.kind, reference_date: dayjs(replacing.reference_date), source: replacing.source, licence: replacing.licence }
    : undefined;
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [layerId, setLayerId] = useState<string | null>(null);
  const upload = useUploadReferenceLayer();
  const progress = useLayerProgress(scope, layerId);
  const job = progress.data?.data;

  useEffect(() => {
    if (job?.status === 'ready') notifySuccess(t(replacing ? m.replacedOk : m.loadedOk));
  }, [job?.status, replacing]);

  const submit = (v: Values) => {
    if (!file) {
      setFileError(t(m.chooseFile));
      return;
    }
    upload.mutate(
      {
        scope,
        file,
        replaceId: replacing?.id,
        details: {
          name: v.name,
          kind: v.kind ?? '',
          reference_date: v.reference_date ? v.reference_date.format('YYYY-MM-DD') : '',
          source: v.source,
          licence: v.licence,
          name_field: v.name_field,
        },
      },
      {
        onSuccess: (res) => setLayerId(res.data.id),
        onError: (err) => {
          const errors = fieldErrorsOf(err);
          const placed = errors
            .filter((e) => (FIELDS as readonly string[]).includes(e.field))
            .map((e) => ({ name: e.field as keyof Values, errors: e.messages }));
          const onFile = errors.find((e) => e.field === 'file');
          if (placed.length) form.setFields(placed);
          if (onFile) setFileError(onFile.messages[0] ?? null);
          if (!placed.length && !onFile) notifyError(err);
        },
      },
    );
  };

  const title = replacing ? t(m.replaceTitle, { name: replacing.name }) : t(m.uploadTitle);
  const following = Boolean(layerId);

  return (
    <SideDrawer
      open={open}
      title={title}
      onClose={onClose}
      width={520}
      footer={
        following ? (
          <div className="inline-12">
            <div className="grow" />
            <Button onClick={onClose} type={job?.status === 'ready' || job?.status === 'failed' ? 'primary' : 'default'}>
              {t(m.close)}
            </Button>
          </div>
        ) : (
          <div className="inline-12">
            <div className="grow" />
            <Button onClick={onClose}>{t(m.cancel)}</Button>
            <Button type="primary" loading={upload.isPending} onClick={() => form.submit()} data-testid="layer-upload-submit">
              {t(replacing ? m.replaceLayer : m.uploadLayer)}
            </Button>
          </div>
        )
      }
    >
      {following ? (
        <div data-testid="layer-job">
          {!job && <Alert type="info" showIcon title={t(m.received)} />}
          {job && job.status !== 'ready' && job.status !== 'failed' && (
            <>
              <p>{t(m.inBackground)}</p>
              <LayerStatus progress={job} detailed />
            </>
          )}
          {job?.status === 'ready' && (
            <Result status="success" title={t(m.ready)} subTitle={t(m.readyDetail, { count: job.features_loaded, n: formatNumber(job.features_loaded) })} />
          )}
          {job?.status === 'failed' && (
            <>
              <Alert type="error" showIcon title={t(m.loadFailed)} description={<LayerStatus progress={job} detailed />} />
              <Button className="mt-12" onClick={() => setLayerId(null)}>
                {t(m.anotherFile)}
              </Button>
            </>
          )}
        </div>
      ) : (
        <Form form={form} layout="vertical" onFinish={submit} requiredMark disabled={upload.isPending} initialValues={initial}>
          {replacing && <Alert className="mb-16" type="info" showIcon title={t(m.replaceNote)} />}
          <Form.Item label={t(m.name)} name="name" rules={[{ required: !replacing, whitespace: true, message: t(m.enterName) }]}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label={t(m.kind)} name="kind" rules={[{ required: !replacing, message: t(m.chooseKind) }]} extra={t(m.kindHelp)}>
            <Select options={kindOptions()} placeholder={t(m.kindPlaceholder)} aria-label={t(m.kind)} />
          </Form.Item>
          <Form.Item label={t(m.referenceDate)} name="reference_date" rules={[{ required: !replacing, message: t(m.chooseDate) }]} extra={t(m.dateHelp)}>
            <DatePicker format={DATE_FORMAT} className="full-width" aria-label={t(m.referenceDate)} />
          </Form.Item>
          <Form.Item label={t(m.source)} name="source" rules={[{ required: !replacing, whitespace: true, message: t(m.enterSource) }]}>
            <Input maxLength={500} placeholder={t(m.sourcePlaceholder)} />
          </Form.Item>
          <Form.Item label={t(m.licence)} name="licence" rules={[{ required: !replacing, whitespace: true, message: t(m.enterLicence) }]}>
            <Input maxLength={200} placeholder={t(m.licencePlaceholder)} />
          </Form.Item>
          <Form.Item label={t(m.nameField)} name="name_field" extra={t(m.nameFieldHelp)}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label={t(m.file)} required validateStatus={fileError ? 'error' : undefined} help={fileError ?? t(m.fileHelp)}>
            <UploadZone
              file={file}
              onChange={(f) => {
                setFile(f);
                setFileError(null);
              }}
              accept={LAYER_ACCEPT}
              maxBytes={LAYER_MAX_BYTES}
              testId="layer-upload-zone"
            />
          </Form.Item>
        </Form>
      )}
    </SideDrawer>
  );
}
