// A registry farm's overlaps with the other farms of its tenant (issue 28), in the farm drawer: for each pair the other
// farm, the overlap's area, its share of each farm and intersection over union; a pair under the tenant's overlap
// tolerance is marked "touching or sliver" (listed, not grouped). Data: GET /farms/{id}/overlaps/.
import List from 'antd/es/list';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { FARM_OVERLAPS_LIMIT, type FarmOverlap } from '@farmland/contracts';
import { t } from '../../../i18n';
import { formatSqm } from '../../../lib/formatters';
import { useFarmOverlaps } from '../api/get-farm-overlaps';
import { overlapPairsText as text } from './overlap-pairs.messages';
import './farmlands.css';

/** className: the block's spacing (below the farm drawer's details by default; the Overlapping Farmlands drawer puts it first in a card). */
export function OverlapPairs({ farmId, className = 'mt-16' }: { farmId: string; className?: string }) {
  const query = useFarmOverlaps(farmId);
  return <OverlapPairList pairs={query.data?.data ?? []} loading={query.isLoading} error={query.isError} className={className} />;
}

export function OverlapPairList({
  pairs,
  loading,
  error,
  className = 'mt-16',
}: {
  pairs: readonly FarmOverlap[];
  loading: boolean;
  error: boolean;
  className?: string;
}) {
  return (
    <div className={className} data-testid="overlap-pairs">
      <div className="strong mb-6">{t(text.title)}</div>
      <List
        size="small"
        loading={loading}
        dataSource={[...pairs]}
        locale={{ emptyText: error ? t(text.loadFailed) : t(text.none) }}
        renderItem={(p) => (
          <List.Item key={p.farm_id} data-testid={p.sliver ? 'overlap-sliver' : 'overlap-pair'}>
            <List.Item.Meta
              title={
                <span>
                  {p.name}
                  {p.sliver && (
                    <Tooltip title={t(text.sliverHint)}>
                      <Tag className="sliver-tag">{t(text.sliver)}</Tag>
                    </Tooltip>
                  )}
                </span>
              }
              description={t(text.pair, { area: formatSqm(p.area_sqm), shareThis: p.share_of_this, shareOther: p.share_of_other, iou: p.iou })}
            />
          </List.Item>
        )}
      />
      {pairs.length >= FARM_OVERLAPS_LIMIT && <div className="text-muted">{t(text.limited, { count: FARM_OVERLAPS_LIMIT })}</div>}
    </div>
  );
}
