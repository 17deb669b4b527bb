// "Creating operational area" (or editing one), in two steps (docs/requirements.md §2, §4, §5): step 1 is the form (Area Name, Region,
// City / Town / District) with "Proceed to Map"; step 2 is the map (zoom 12, centred on the chosen city, ?lat&lng in the
// address) with Back. Once a polygon of at least 3 points is drawn a popup offers Proceed, then asks 'Are you sure you
// want to create this operational area' ('update' when editing); confirming submits. An error shows the server's city
// message (or its first message) followed by 'Please edit any point on the polygon and try again'.
import { useEffect, useMemo, useState } from 'react';
import { useUrlParams } from '../../../lib/use-url-params';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Steps from 'antd/es/steps';
import Typography from 'antd/es/typography';
import type { OperationalArea } from '@farmland/contracts';
import { LazyPolygonDrawMap } from '../../../components/map/lazy-map';
import { MAP_ZOOM, type MapFeature } from '../../../components/map/map-constants';
import { ApiError } from '../../../lib/api-client';
import { fieldErrorsOf, firstFieldError } from '../../../lib/field-errors';
import { notifySuccess } from '../../../lib/notifier';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useCities, useRegions } from '../../../lib/lookups';
import { useSaveOperationalArea } from '../api/save-operational-area';
import { t } from '../../../i18n';
import { operationalAreasText as m } from '../operational-areas.messages';
import './operational-areas.css';

type Ring = [number, number][];
type FormValues = { name: string; region_id: string; city_id: string };
type Phase = 'drawing' | 'ready' | 'confirm' | 'error';

/** The message of a failed save: errors.city first (docs/requirements.md §8), else the first field message, else the message. */
export function saveErrorText(err: unknown): string {
  if (err instanceof ApiError) {
    const errors = err.body?.errors;
    const first = firstFieldError(err, 'city', 'city_id') ?? fieldErrorsOf(err)[0]?.messages[0];
    if (first) return first;
    if (typeof errors === 'string' && errors) return errors;
    return err.message;
  }
  return t(m.couldNotSave);
}

type Props = {
  open: boolean;
  /** The area being edited, or null to create one. */
  area: OperationalArea | null;
  /** The other areas, drawn underneath for reference. */
  others: readonly MapFeature[];
  onClose: () => void;
};

export function AreaModal({ open, area, others, onClose }: Props) {
  const [form] = Form.useForm<FormValues>();
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<FormValues | null>(null);
  const [ring, setRing] = useState<Ring | null>(area?.coordinates ?? null);
  const [phase, setPhase] = useState<Phase>(area ? 'ready' : 'drawing');
  const [error, setError] = useState<string | null>(null);
  const [citySearch, setCitySearch] = useState('');
  const debouncedCity = useDebouncedValue(citySearch);
  const [, setParams] = useUrlParams();
  const regions = useRegions();
  const regionId = Form.useWatch('region_id', form);
  const region = regions.data?.data.results.find((r) => r.id === regionId);
  const cities = useCities(region?.country_id, debouncedCity);
  const [center, setCenter] = useState<[number, number] | undefined>(undefined);
  const save = useSaveOperationalArea();

  // Each opening starts at the first step with the area's ring (state adjusted while rendering, not in an effect).
  const [openedFor, setOpenedFor] = useState<{ open: boolean; area: OperationalArea | null }>({ open, area });
  if (openedFor.open !== open || openedFor.area !== area) {
    setOpenedFor({ open, area });
    if (open) {
      setStep(0);
      setRing(area?.coordinates ?? null);
      setPhase(area ? 'ready' : 'drawing');
      setError(null);
    }
  }
  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(area ? { name: area.name, region_id: area.region_id, city_id: area.city_id } : { name: '', region_id: undefined, city_id: undefined });
  }, [open, area, form]);

  const cityOptions = useMemo(() => {
    const list = cities.data?.data ?? [];
    const opts = list.map((c) => ({ value: c.id, label: c.name, lat: c.latitude, lng: c.longitude }));
    if (area && !opts.some((o) => o.value === area.city_id)) opts.unshift({ value: area.city_id, label: area.city, lat: NaN, lng: NaN });
    return opts;
  }, [cities.data, area]);

  const writeCentre = (c: [number, number]) =>
    setParams(
      (cur) => {
        const next = new URLSearchParams(cur);
        next.set('lat', c[1].toFixed(6));
        next.set('lng', c[0].toFixed(6));
        return next;
      },
      { replace: true },
    );

  const proceedToMap = async () => {
    const v = await form.validateFields();
    setValues(v);
    const city = cityOptions.find((o) => o.value === v.city_id);
    const c: [number, number] | undefined = city && Number.isFinite(city.lat) ? [city.lng, city.lat] : undefined;
    setCenter(c);
    if (c) writeCentre(c);
    setStep(1);
  };

  const close = () => {
    setParams(
      (cur) => {
        const next = new URLSearchParams(cur);
        next.delete('lat');
        next.delete('lng');
        return next;
      },
      { replace: true },
    );
    onClose();
  };

  const submit = async () => {
    if (!values || !ring) return;
    try {
      await save.mutateAsync({ id: area?.id ?? null, body: { ...values, coordinates: ring } });
      notifySuccess(area ? t(m.edited) : t(m.created));
      close();
    } catch (err) {
      setError(saveErrorText(err));
      setPhase('error');
    }
  };

  const onChange = (next: Ring | null) => {
    setRing(next);
    setError(null);
    setPhase(next && next.length >= 4 ? 'ready' : 'drawing');
  };

  const popup =
    phase === 'drawing' ? null : (
      <div role="dialog" aria-label={t(m.popupAria)} data-testid="area-popup" className="area-popup">
        {phase === 'ready' && (
          <Space direction="vertical" size={8}>
            <Typography.Text>{t(m.polygonPoints, { count: ring ? ring.length - 1 : 0 })}</Typography.Text>
            <Button type="primary" onClick={() => setPhase('confirm')}>
              {t(m.proceed)}
            </Button>
          </Space>
        )}
        {phase === 'confirm' && (
          <Space direction="vertical" size={8}>
            <Typography.Text>{area ? t(m.confirmUpdate) : t(m.confirmCreate)}</Typography.Text>
            <Space>
              <Button onClick={() => setPhase('ready')} disabled={save.isPending}>
                {t(m.no)}
              </Button>
              <Button type="primary" loading={save.isPending} onClick={() => void submit()}>
                {t(m.yes)}
              </Button>
            </Space>
          </Space>
        )}
        {phase === 'error' && (
          <div role="alert">
            <Typography.Text type="danger" className="block">
              {error}
            </Typography.Text>
            <Typography.Text>{t(m.retryHint)}</Typography.Text>
          </div>
        )}
      </div>
    );

  return (
    <Modal
      open={open}
      title={area ? t(m.editingTitle) : t(m.creatingTitle)}
      onCancel={close}
      footer={null}
      width={step === 0 ? 560 : 980}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Steps size="small" current={step} items={[{ title: t(m.stepDetails) }, { title: t(m.stepDraw) }]} className="mb-16" />
      <div hidden={step !== 0}>
        <Form form={form} layout="vertical" requiredMark>
          <Form.Item
            name="name"
            label={t(m.areaName)}
            rules={[
              { required: true, whitespace: true, message: t(m.nameRequired) },
              { min: 2, message: t(m.nameMin) },
            ]}
          >
            <Input placeholder={t(m.namePlaceholder)} maxLength={120} />
          </Form.Item>
          <Form.Item name="region_id" label={t(m.region)} rules={[{ required: true, message: t(m.selectRegionRequired) }]}>
            <Select
              placeholder={t(m.selectRegion)}
              loading={regions.isLoading}
              showSearch={{ optionFilterProp: 'label' }}
              options={(regions.data?.data.results ?? []).map((r) => ({ value: r.id, label: `${r.name} (${r.country})` }))}
              onChange={() => form.setFieldValue('city_id', undefined)}
            />
          </Form.Item>
          <Form.Item name="city_id" label={t(m.city)} rules={[{ required: true, message: t(m.selectCityRequired) }]}>
            <Select
              placeholder={region ? t(m.searchCities) : t(m.regionFirst)}
              disabled={!region}
              showSearch={{ filterOption: false, onSearch: setCitySearch }}
              loading={cities.isFetching}
              options={cityOptions.map((o) => ({ value: o.value, label: o.label }))}
              notFoundContent={cities.isFetching ? t(m.loading) : t(m.noCity)}
            />
          </Form.Item>
        </Form>
        <div className="inline align-stretch justify-end gap-8">
          <Button onClick={close}>{t(m.cancel)}</Button>
          <Button type="primary" onClick={() => void proceedToMap().catch(() => undefined)}>
            {t(m.proceedToMap)}
          </Button>
        </div>
      </div>
      {step === 1 && (
        <>
          <LazyPolygonDrawMap
            initial={area?.coordinates ?? null}
            context={others}
            center={area ? undefined : center}
            zoom={MAP_ZOOM.areaEditor}
            onChange={onChange}
            onMoveEnd={writeCentre}
            overlay={popup}
            height={480}
          />
          <div className="inline align-stretch justify-between mt-12">
            <Button onClick={() => setStep(0)}>{t(m.back)}</Button>
            <Typography.Text type="secondary">
              {values?.name} · {region?.name}
            </Typography.Text>
          </div>
        </>
      )}
    </Modal>
  );
}
