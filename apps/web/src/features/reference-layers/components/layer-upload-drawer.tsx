// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// Upload a reference layer, or replace one's file: the details (name, kind, reference date, source, licence, and the
// optional feature property that names each feature) and the file in the one upload widget (GeoJSON, KML, KMZ or a
// zipped Shapefile). After the API takes it (202) the drawer follows the background job: its status and progress, and
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

/** GeoJSON (.geojson or .json), KML, KMZ, or a zipped Shapefile; the API checks the content again. */
export const LAYER_ACCEPT = ['.geojson', '.json', '.kml', '.kmz', '.zip'] as const;
/** The API's upload limit by default (UPLOAD_LIMIT_BYTES, 3 MiB); a larger file is refused there too (413 on file). */
export const LAYER_MAX_BYTES = 3_145_728;

type Values = { name: string; kind: ReferenceLayerKind | undefined; reference_date: Dayjs | null; source: string; licence: string; name_field: string };
const FIELDS = ['name', 'kind', 'reference_date', 'source', 'licence', 'name_field'] as const;

export const KIND_OPTIONS = REFERENCE_LAYER_KINDS.map((k) => ({ value: k, label: LAYER_KIND_LABEL[k] }));

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
    if (job?.status === 'ready') notifySuccess(replacing ? 'Reference layer replaced successfully' : 'Reference layer loaded successfully');
  }, [job?.status, replacing]);

  const submit = (v: Values) => {
    if (!file) {
      setFileError('Choose a GeoJSON, KML, KMZ or zipped Shapefile (.zip) file');
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
          const placed = errors.filter((e) => (FIELDS as readonly string[]).includes(e.field)).map((e) => ({ name: e.field as keyof Values, errors: e.messages }));
          const onFile = errors.find((e) => e.field === 'file');
          if (placed.length) form.setFields(placed);
          if (onFile) setFileError(onFile.messages[0] ?? null);
          if (!placed.length && !onFile) notifyError(err);
        },
      },
    );
  };

  const title = replacing ? `Replace ${replacing.name}` : 'Upload Reference Layer';
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
              Close
            </Button>
          </div>
        ) : (
          <div className="inline-12">
            <div className="grow" />
            <Button onClick={onClose}>Cancel</Button>
            <Button type="primary" loading={upload.isPending} onClick={() => form.submit()} data-testid="layer-upload-submit">
              {replacing ? 'Replace Layer' : 'Upload Layer'}
            </Button>
          </div>
        )
      }
    >
      {following ? (
        <div data-testid="layer-job">
          {!job && <Alert type="info" showIcon title="The file was received; its load is starting." />}
          {job && job.status !== 'ready' && job.status !== 'failed' && (
            <>
              <p>The layer loads in the background: you can close this drawer, the list shows its progress.</p>
              <LayerStatus progress={job} detailed />
            </>
          )}
          {job?.status === 'ready' && (
            <Result
              status="success"
              title="The layer is ready"
              subTitle={`${formatNumber(job.features_loaded)} features loaded; every farm has been screened against it.`}
            />
          )}
          {job?.status === 'failed' && (
            <>
              <Alert type="error" showIcon title="The layer could not be loaded" description={<LayerStatus progress={job} detailed />} />
              <Button className="mt-12" onClick={() => setLayerId(null)}>
                Choose another file
              </Button>
            </>
          )}
        </div>
      ) : (
        <Form form={form} layout="vertical" onFinish={submit} requiredMark disabled={upload.isPending} initialValues={initial}>
          {replacing && (
            <Alert
              className="mb-16"
              type="info"
              showIcon
              title="The new file replaces every feature of the layer once it has loaded; until then, and if it fails, the current version stays in use."
            />
          )}
          <Form.Item label="Name" name="name" rules={[{ required: !replacing, whitespace: true, message: 'Enter a name' }]}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label="Kind" name="kind" rules={[{ required: !replacing, message: 'Choose the kind of layer' }]} extra="What the layer shows decides how an overlap counts in the plot-risk verdict.">
            <Select options={KIND_OPTIONS} placeholder="Choose a kind" aria-label="Kind" />
          </Form.Item>
          <Form.Item label="Reference date" name="reference_date" rules={[{ required: !replacing, message: 'Choose the date the layer describes' }]} extra="The date the layer describes (for forest cover, the 2020 cut-off: 31/12/2020).">
            <DatePicker format={DATE_FORMAT} className="full-width" aria-label="Reference date" />
          </Form.Item>
          <Form.Item label="Source" name="source" rules={[{ required: !replacing, whitespace: true, message: 'Enter the source (who published the layer)' }]}>
            <Input maxLength={500} placeholder="For example: JRC Global Forest Cover 2020" />
          </Form.Item>
          <Form.Item label="Licence" name="licence" rules={[{ required: !replacing, whitespace: true, message: 'Enter the licence the layer is published under' }]}>
            <Input maxLength={200} placeholder="For example: CC-BY-4.0" />
          </Form.Item>
          <Form.Item label="Feature name property" name="name_field" extra="Optional: the feature property that names each feature.">
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label="File" required validateStatus={fileError ? 'error' : undefined} help={fileError ?? 'GeoJSON, KML, KMZ or a zipped Shapefile (.zip)'}>
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
