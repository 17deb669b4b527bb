// The list drawers of the result panel (docs/requirements.md §2): '{n} Farmlands within Op. Areas', '{n} Farmlands outside Op. Areas',
// '{n} Overlapping Farmlands' (grouped by overlapping_id: '{count} conflicting farmlands', 'View on map', expandable
// points) and '{n} Unrecognized Farmlands'. Paged from the API (20 a page), so a 100k-row analysis stays smooth.
import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Collapse from 'antd/es/collapse';
import Empty from 'antd/es/empty';
import List from 'antd/es/list';
import Pagination from 'antd/es/pagination';
import Skeleton from 'antd/es/skeleton';
import type { AnalysisFarm, AnalysisListKind } from '@farmland/contracts';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { formatHectares, formatNumber, formatSqm } from '../../../lib/formatters';
import { RESULT_PAGE_SIZE, useAnalysisFarms } from '../api/get-analysis-farms';
import { CategoryExportButtons } from './category-export-buttons';
import { RowWarnings } from './row-warnings';
import { RowRisk } from './row-risk';
import { t, type Text } from '../../../i18n';
import { analysesText as m } from '../analyses.messages';
import './analyses.css';

const LIST_TITLE: Record<AnalysisListKind, Text> = {
  within: m.titleWithin,
  outside: m.titleOutside,
  overlapping: m.titleOverlapping,
  unrecognized: m.titleUnrecognized,
  errors: m.titleFailed,
};

export function resultListTitle(kind: AnalysisListKind, n: number): string {
  return t(LIST_TITLE[kind] ?? m.titleFailed, { n, count: formatNumber(n) });
}

// `coordinates` is a ring for every geometry type (a MultiPolygon's first part, a point's one position; issue 13).
const firstPoint = (f: AnalysisFarm): [number, number] | undefined => {
  const p = f.coordinates[0];
  return p && p.length >= 2 ? [p[0]!, p[1]!] : undefined;
};

/** Pages reach the first 10,000 rows of a list (the API's rule for page numbers; its cursor reads further, and the exports hold every row). */
const PAGED_ROWS = 10_000;

const percent = (x: number) => t(m.percent, { value: formatNumber(x * 100, x < 0.01 ? 2 : 1) });

/**
 * A row's overlaps with other rows (issue 28): the other row, the overlap's area, its share of each and intersection over
 * union; a pair under the tenant's overlap tolerance is marked "touching or sliver" (shown, not grouped).
 */
export function OverlapPairs({ farm }: { farm: AnalysisFarm }) {
  if (farm.overlaps.length === 0) return null;
  return (
    <ul className="overlap-pairs" data-testid="overlap-pairs">
      {farm.overlaps.map((o) => (
        <li key={o.row_number} data-testid={o.sliver ? 'overlap-sliver' : 'overlap-pair'}>
          {t(m.overlapPair, {
            row: String(o.row_number),
            area: formatSqm(o.area_sqm),
            shareThis: percent(o.share_of_this),
            shareOther: percent(o.share_of_other),
            iou: formatNumber(o.iou, 2),
          })}
          {o.sliver ? t(m.sliver) : ''}
        </li>
      ))}
    </ul>
  );
}

type Props = {
  analysisId: string;
  kind: AnalysisListKind | null;
  total: number;
  onClose: () => void;
  onViewOnMap: (point: [number, number] | undefined) => void;
};

export function ResultListDrawer({ analysisId, kind, total, onClose, onViewOnMap }: Props) {
  // The page belongs to the list it was chosen in: another list starts on its first page.
  const [paging, setPaging] = useState<{ kind: AnalysisListKind | null; page: number }>({ kind, page: 1 });
  const page = paging.kind === kind ? paging.page : 1;
  const setPage = (p: number) => setPaging({ kind, page: p });
  const q = useAnalysisFarms(analysisId, kind, page);
  const rows = q.data?.data.results ?? [];

  const farmLine = (f: AnalysisFarm) => (
    <List.Item
      key={f.row_number}
      actions={[
        <Button key="map" size="small" type="link" onClick={() => onViewOnMap(firstPoint(f))}>
          {t(m.viewOnMap)}
        </Button>,
      ]}
    >
      <List.Item.Meta
        title={f.name ?? t(m.rowName, { row: String(f.row_number) })}
        description={
          <>
            {t(m.farmLine, { row: String(f.row_number), size: formatHectares(f.area), area: f.operational_area ?? t(m.notAvailable) })}
            {f.warnings.length > 0 && (
              <div className="mt-4">
                <RowWarnings codes={f.warnings} />
              </div>
            )}
            <OverlapPairs farm={f} />
            <RowRisk risk={f.risk} rowNumber={f.row_number} />
          </>
        }
      />
    </List.Item>
  );

  const groups = new Map<number, AnalysisFarm[]>();
  if (kind === 'overlapping')
    for (const f of rows) groups.set(f.overlapping_id ?? -f.row_number, [...(groups.get(f.overlapping_id ?? -f.row_number) ?? []), f]);

  return (
    <SideDrawer open={kind !== null} title={kind ? resultListTitle(kind, total) : ''} onClose={onClose} width={520}>
      <div data-testid={`result-list-${kind ?? 'none'}`}>
        {kind && total > 0 && (
          <div className="mb-12">
            <CategoryExportButtons analysisId={analysisId} category={kind} />
          </div>
        )}
        {q.isLoading ? (
          <Skeleton active />
        ) : q.isError ? (
          <Alert type="error" showIcon message={t(m.listLoadFailed)} action={<Button onClick={() => void q.refetch()}>{t(m.tryAgain)}</Button>} />
        ) : rows.length === 0 ? (
          <Empty description={t(m.noFarmlands)} />
        ) : kind === 'overlapping' ? (
          <Collapse
            items={[...groups.entries()].map(([gid, members]) => ({
              key: String(gid),
              label: (
                <span data-testid="overlap-group">
                  {t(m.conflicting, { n: members[0]?.group_size ?? members.length, count: formatNumber(members[0]?.group_size ?? members.length) })}
                </span>
              ),
              extra: (
                <Button
                  size="small"
                  type="link"
                  onClick={(e) => {
                    e.stopPropagation();
                    onViewOnMap(members[0] ? firstPoint(members[0]) : undefined);
                  }}
                >
                  {t(m.viewOnMap)}
                </Button>
              ),
              children: (
                <List
                  size="small"
                  dataSource={members}
                  renderItem={(f) => (
                    <List.Item key={f.row_number}>
                      <List.Item.Meta
                        title={f.name ?? t(m.rowName, { row: String(f.row_number) })}
                        description={
                          <>
                            <span className="mono">{f.coordinates.map((p) => `${p[0]}, ${p[1]}`).join(' · ')}</span>
                            {f.warnings.length > 0 && (
                              <div className="mt-4">
                                <RowWarnings codes={f.warnings} />
                              </div>
                            )}
                            <OverlapPairs farm={f} />
                            <RowRisk risk={f.risk} rowNumber={f.row_number} />
                          </>
                        }
                      />
                    </List.Item>
                  )}
                />
              ),
            }))}
          />
        ) : (
          <List size="small" dataSource={rows} renderItem={farmLine} />
        )}
        {total > RESULT_PAGE_SIZE && (
          <Pagination
            className="mt-16"
            current={page}
            pageSize={RESULT_PAGE_SIZE}
            total={Math.min(total, PAGED_ROWS)}
            showSizeChanger={false}
            onChange={setPage}
          />
        )}
        {total > PAGED_ROWS && (
          <div className="mt-8 text-muted" data-testid="result-list-paged-note">
            {t(m.pagedNote, { first: formatNumber(PAGED_ROWS), total: formatNumber(total) })}
          </div>
        )}
      </div>
    </SideDrawer>
  );
}
