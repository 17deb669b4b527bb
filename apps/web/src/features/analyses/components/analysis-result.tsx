// /admin/farm-analysis/{analysis} (docs/requirements.md §2, §4, §8): a side panel that can be hidden (name and description, the analysis
// it re-analyses or its own re-analyses, as links, 'Filter by', totals in sqm and ha, five cards) beside the result map.
// Each card opens its list drawer (Errors opens the Failed Data modal); a marker's popup opens the farm drawer. lat and
// lng in the address centre the map at zoom 18; with no farm within an area, the map centres on the browser's position
// ('Error getting location' when that fails).
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useUrlParams } from '../../../lib/use-url-params';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Checkbox from 'antd/es/checkbox';
import Progress from 'antd/es/progress';
import Result from 'antd/es/result';
import Skeleton from 'antd/es/skeleton';
import Typography from 'antd/es/typography';
import type { AnalysisDetail, AnalysisListKind, AnalysisMapFeature } from '@farmland/contracts';
import { coreFeatures } from '../../../components/map/fit-core';
import { LazyFarmMap } from '../../../components/map/lazy-map';
import { CATEGORY_COLORS, MAP_ZOOM, type MapCategory, type MapColorBy, type MapFeature } from '../../../components/map/map-constants';
import { MapLegend } from '../../../components/map/map-legend';
import { VerdictTag } from '../../../components/eudr/verdict-tag';
import { ApiError } from '../../../lib/api-client';
import { formatHectares, formatNumber, formatSqm } from '../../../lib/formatters';
import { toast } from '../../../lib/notifier';
import { useAnalysis } from '../api/get-analysis';
import { useAnalysisMap, type Bbox } from '../api/get-analysis-map';
import { FailedDataModal } from './failed-data-modal';
import { ResultFarmDrawer } from './result-farm-drawer';
import { ResultListDrawer } from './result-list-drawer';
import { paths } from '../../../lib/paths';
import { useLatest } from '../../../lib/use-latest';
import { currentIntl, t, type Text } from '../../../i18n';
import { analysesText as m, analysisStatusText } from '../analyses.messages';
import { Figure, Inline } from '../../../components/ui/layout';
import './analyses.css';

const FILTERS: { value: MapCategory; label: Text }[] = [
  { value: 'within', label: m.filterWithin },
  { value: 'outside', label: m.filterOutside },
  { value: 'overlap', label: m.filterOverlap },
  { value: 'unrecognized', label: m.filterUnrecognized },
];

export function mapCategoryOf(f: Pick<AnalysisMapFeature, 'category' | 'is_overlapping' | 'is_unrecognized'>): MapCategory {
  if (f.is_overlapping) return 'overlap';
  if (f.is_unrecognized) return 'unrecognized';
  return f.category;
}

type Rings = MapFeature['rings'];

/**
 * A row → map features with the row's id: one per parcel of a MultiPolygon, and a point as a ring of its one position
 * repeated (no fill; its marker stands at the point). Issue 13.
 */
const toFeatures = (f: AnalysisMapFeature): MapFeature[] => {
  const base = {
    id: String(f.row_number),
    name: f.name ?? t(m.rowName, { row: String(f.row_number) }),
    category: mapCategoryOf(f),
    properties: { operational_area: f.operational_area, area: f.area, verdict: f.risk_level ?? null },
  };
  if (f.type === 'MultiPolygon' && f.parts) return f.parts.map((rings) => ({ ...base, rings: rings as unknown as Rings }));
  if (f.type === 'Point') {
    const p = f.coordinates[0]?.[0] as unknown as readonly [number, number] | undefined;
    return p ? [{ ...base, rings: [[p, p, p, p]] }] : [];
  }
  return [{ ...base, rings: f.coordinates as unknown as Rings }];
};

/** The view's box from its centre and zoom (Web Mercator, 256-px tiles, a generous 1,600 × 1,200 px view). */
function viewBox([lng, lat]: [number, number], zoom: number): Bbox {
  const degPerPx = 360 / (256 * 2 ** zoom);
  const dx = 800 * degPerPx;
  const dy = 600 * degPerPx * Math.cos((lat * Math.PI) / 180);
  const clamp = (v: number, m: number) => Math.max(-m, Math.min(m, v));
  return [clamp(lng - dx, 180), clamp(lat - dy, 90), clamp(lng + dx, 180), clamp(lat + dy, 90)];
}

export function AnalysisResult({ id }: { id: string }) {
  const detail = useAnalysis(id);
  const a = detail.data?.data;
  if (detail.isLoading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (detail.isError || !a) {
    const missing = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <Result
        status={missing ? '404' : 'error'}
        title={t(missing ? m.notFound : m.loadFailed)}
        extra={!missing && <Button onClick={() => void detail.refetch()}>{t(m.tryAgain)}</Button>}
      />
    );
  }
  if (a.status === 'queued' || a.status === 'processing') {
    return (
      <Card title={a.name} data-testid="analysis-running">
        <div className="analysis-running">
          <Progress type="circle" percent={a.status === 'queued' ? 0 : a.progress} />
          <p className="mt-16">
            {a.status === 'queued' ? t(m.waiting) : t(m.analysing, { count: a.total_uploaded_data_count, rows: formatNumber(a.total_uploaded_data_count) })}
          </p>
        </div>
      </Card>
    );
  }
  if (a.status === 'failed') {
    return (
      <Card title={a.name}>
        <Alert type="error" showIcon message={t(m.failed)} description={a.failure_reason ?? t(m.noReason)} data-testid="analysis-failed" />
      </Card>
    );
  }
  return <CompletedResult a={a} />;
}

const CARDS: {
  kind: AnalysisListKind;
  title: Text;
  ref: keyof Pick<AnalysisDetail, 'errors' | 'within_operational_area' | 'outside_operational_area' | 'overlapping_farmlands' | 'unrecognized_farmlands'>;
  color: string;
}[] = [
  { kind: 'errors', title: m.cardErrors, ref: 'errors', color: '#595959' },
  { kind: 'within', title: m.cardWithin, ref: 'within_operational_area', color: CATEGORY_COLORS.within },
  { kind: 'outside', title: m.cardOutside, ref: 'outside_operational_area', color: CATEGORY_COLORS.outside },
  { kind: 'overlapping', title: m.cardOverlapping, ref: 'overlapping_farmlands', color: CATEGORY_COLORS.overlap },
  { kind: 'unrecognized', title: m.cardUnrecognized, ref: 'unrecognized_farmlands', color: CATEGORY_COLORS.unrecognized },
];

function CompletedResult({ a }: { a: AnalysisDetail }) {
  const [params, setParams] = useUrlParams();
  const [panel, setPanel] = useState(true);
  const [filter, setFilter] = useState<MapCategory[]>(FILTERS.map((f) => f.value));
  const [list, setList] = useState<AnalysisListKind | null>(null);
  const [failedOpen, setFailedOpen] = useState(false);
  const [farm, setFarm] = useState<AnalysisMapFeature | null>(null);
  const [bbox, setBbox] = useState<Bbox | null>(null);
  const [located, setLocated] = useState<[number, number] | null>(null);
  // Issue 29: with reference layers chosen, each row has a verdict, and the map can be coloured by it.
  const hasLayers = a.reference_layers.length > 0;
  const [colorBy, setColorBy] = useState<MapColorBy>('category');
  const map = useAnalysisMap(a.id, bbox, true);
  const features = useMemo(() => (map.data?.data.features ?? []).flatMap(toFeatures), [map.data]);
  // The first view fits the farms, less far outliers (a row with swapped coordinates), at most at the farm zoom.
  const core = useMemo(() => coreFeatures(features), [features]);
  const byRow = useMemo(() => new Map((map.data?.data.features ?? []).map((f) => [String(f.row_number), f])), [map.data]);
  const truncated = map.data?.data.truncated ?? false;

  const lat = Number(params.get('lat'));
  const lng = Number(params.get('lng'));
  const pinned: [number, number] | undefined = params.get('lat') && params.get('lng') && Number.isFinite(lat) && Number.isFinite(lng) ? [lng, lat] : undefined;

  // No farm within an area: centre on the user's own position (docs/requirements.md §7), or say it could not be found.
  const start = useLatest({ pinned, within: a.within_operational_area.count });
  useEffect(() => {
    // once per analysis, from what the page showed then
    if (start.current.pinned || start.current.within > 0) return;
    if (!('geolocation' in navigator)) {
      toast('error', t(m.geolocationError));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (pos) => setLocated([pos.coords.longitude, pos.coords.latitude]),
      () => toast('error', t(m.geolocationError)),
      { timeout: 8000 },
    );
  }, [a.id, start]);

  const center = pinned ?? located ?? undefined;
  const openCard = (kind: AnalysisListKind) => {
    if (kind === 'errors') setFailedOpen(true);
    else setList(kind);
  };
  const viewOnMap = (point: [number, number] | undefined) => {
    if (!point) return;
    setList(null);
    setParams({ lat: String(point[1]), lng: String(point[0]) });
  };

  return (
    <div className="analysis-result" data-testid="analysis-result">
      {!panel && <h1 className="visually-hidden">{a.name}</h1>}
      {panel && (
        <aside className="analysis-panel" aria-label={t(m.summaryLabel)}>
          <div>
            {/* The page's one level-one heading, at the size of a panel title. */}
            <Typography.Title level={1} className="section-title">
              {a.name}
            </Typography.Title>
            {a.description && <Typography.Paragraph type="secondary">{a.description}</Typography.Paragraph>}
            {a.parent_analysis && (
              <div data-testid="analysis-parent">
                {currentIntl().formatMessage(m.reAnalysisOf, {
                  name: a.parent_analysis.name,
                  link: (chunks) => (
                    <Link key="parent" to={paths.tenant.analysis(a.parent_analysis!.id)}>
                      {chunks}
                    </Link>
                  ),
                })}
              </div>
            )}
            {a.re_analyses.length > 0 && (
              <div data-testid="analysis-re-analyses">
                <div className="strong">{t(m.reAnalyses)}</div>
                <ul className="bullets">
                  {a.re_analyses.map((r) => (
                    <li key={r.id}>
                      <Link to={paths.tenant.analysis(r.id)}>{r.name}</Link>
                      {r.status !== 'completed' && <span className="text-muted"> ({t(analysisStatusText[r.status])})</span>}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
          <div>
            <div className="strong mb-4">{t(m.filterBy)}</div>
            <Checkbox.Group
              value={filter}
              onChange={(v) => setFilter(v)}
              options={FILTERS.map((f) => ({
                ...f,
                // The category's colour as a swatch beside dark text: coloured text failed the contrast check.
                label: (
                  <span>
                    <span aria-hidden="true" className="category-swatch" style={{ background: CATEGORY_COLORS[f.value] }} />
                    {t(f.label)}
                  </span>
                ),
              }))}
            />
          </div>
          <Card size="small">
            <div className="text-muted">{t(m.totalArea)}</div>
            <Figure size="md" data-testid="analysis-total-area">
              {formatSqm(a.total_area)}
            </Figure>
            <div className="text-muted">
              {formatHectares(a.total_area)} · {t(m.rowsUploaded, { count: a.total_uploaded_data_count, rows: formatNumber(a.total_uploaded_data_count) })}
            </div>
          </Card>
          {a.with_warnings > 0 && (
            <Alert
              type="warning"
              showIcon
              data-testid="analysis-warnings"
              message={t(m.withWarnings, { count: a.with_warnings, rows: formatNumber(a.with_warnings) })}
              description={t(m.withWarningsHelp)}
            />
          )}
          {CARDS.map((c) => (
            <Card
              key={c.kind}
              size="small"
              hoverable
              role="button"
              tabIndex={0}
              data-testid={`result-card-${c.kind}`}
              onClick={() => openCard(c.kind)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') openCard(c.kind);
              }}
              className="result-card"
              style={{ borderLeftColor: c.color }}
            >
              <div className="inline align-stretch justify-between">
                <span>{t(c.title)}</span>
                <strong>{formatNumber(a[c.ref].count)}</strong>
              </div>
            </Card>
          ))}
        </aside>
      )}
      <div className="analysis-map-column">
        <Inline gap={8} wrap justify="between">
          <Button onClick={() => setPanel((p) => !p)}>{t(panel ? m.hidePanel : m.showPanel)}</Button>
          {core.length < features.length && (
            <Typography.Text type="secondary" data-testid="map-outliers">
              {t(m.outliers, { count: features.length - core.length, far: formatNumber(features.length - core.length) })}
            </Typography.Text>
          )}
          {truncated && (
            <Typography.Text type="secondary" data-testid="map-truncated">
              {t(m.truncated, { shown: formatNumber(map.data?.data.features.length ?? 0), total: formatNumber(map.data?.data.count ?? 0) })}
            </Typography.Text>
          )}
        </Inline>
        {map.isError ? (
          <Alert type="error" showIcon message={t(m.mapLoadFailed)} action={<Button onClick={() => void map.refetch()}>{t(m.tryAgain)}</Button>} />
        ) : (
          <LazyFarmMap
            features={features}
            categories={filter}
            colorBy={hasLayers ? colorBy : 'category'}
            center={center}
            zoom={center ? MAP_ZOOM.farm : undefined}
            fitToFeatures={!center && bbox === null}
            fitFeatures={core}
            height={640}
            testId="analysis-map"
            ariaLabel={t(m.mapLabel)}
            onMoveEnd={(c, z) => {
              if (truncated || bbox) setBbox(viewBox(c, z));
            }}
            renderPopup={(picked, close) => {
              const f = byRow.get(picked.id);
              return (
                <div data-testid="result-popup" className="result-popup">
                  <strong>{picked.name}</strong>
                  <div className="text-muted">{f?.operational_area ?? t(m.notAvailable)}</div>
                  {f?.risk_level && (
                    <div className="mt-4">
                      <VerdictTag level={f.risk_level} testId="popup-verdict" />
                    </div>
                  )}
                  <Button
                    size="small"
                    type="primary"
                    className="mt-8"
                    onClick={() => {
                      close();
                      if (f) setFarm(f);
                    }}
                  >
                    {t(m.viewFarm)}
                  </Button>
                </div>
              );
            }}
          />
        )}
        {hasLayers && <MapLegend colorBy={colorBy} onColorByChange={setColorBy} />}
      </div>
      <ResultListDrawer
        analysisId={a.id}
        kind={list}
        total={list ? a[CARDS.find((c) => c.kind === list)!.ref].count : 0}
        onClose={() => setList(null)}
        onViewOnMap={viewOnMap}
      />
      <FailedDataModal analysis={a} open={failedOpen} onClose={() => setFailedOpen(false)} />
      <ResultFarmDrawer farm={farm} onClose={() => setFarm(null)} />
    </div>
  );
}
