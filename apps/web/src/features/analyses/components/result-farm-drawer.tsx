// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The farm drawer of the result map (docs/requirements.md §2): name, 'Farm Coordinate' with its points (longitude, latitude), 'Copy
// Coordinates' ('Coordinates copied'), the size in hectares, the area in sqm, and the operational area or 'Not Available'.
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import type { AnalysisMapFeature } from '@farmland/contracts';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { formatHectares, formatSqm } from '../../../lib/formatters';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { RowWarnings } from './row-warnings';
import { VerdictTag } from '../../../components/eudr/verdict-tag';

export const COORDINATES_COPIED = 'Coordinates copied';

export function ResultFarmDrawer({ farm, onClose }: { farm: AnalysisMapFeature | null; onClose: () => void }) {
  const ring = farm?.coordinates[0] ?? [];
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(ring));
      notifySuccess(COORDINATES_COPIED);
    } catch (err) {
      notifyError(err);
    }
  };
  return (
    <SideDrawer open={farm !== null} title={farm?.name ?? (farm ? `Row ${farm.row_number}` : '')} onClose={onClose}>
      {farm && (
        <div data-testid="result-farm-drawer">
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Row">{farm.row_number}</Descriptions.Item>
            <Descriptions.Item label="Farm size">{formatHectares(farm.area)}</Descriptions.Item>
            <Descriptions.Item label="Area">{formatSqm(farm.area)}</Descriptions.Item>
            <Descriptions.Item label="Operational area">{farm.operational_area ?? 'Not Available'}</Descriptions.Item>
            {farm.risk_level && (
              <Descriptions.Item label="EUDR verdict">
                <VerdictTag level={farm.risk_level} testId="result-farm-verdict" />
                <div className="text-muted small mt-4">The reasons and figures per layer are in the farm's row of its list.</div>
              </Descriptions.Item>
            )}
            {farm.warnings && farm.warnings.length > 0 && (
              <Descriptions.Item label="Warnings">
                <RowWarnings codes={farm.warnings} testId="result-farm-warnings" />
              </Descriptions.Item>
            )}
          </Descriptions>
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', margin: '16px 0 8px' }}>
            <strong>Farm Coordinate</strong>
            <Button size="small" onClick={() => void copy()}>
              Copy Coordinates
            </Button>
          </div>
          <ol style={{ paddingLeft: 20, fontFamily: 'ui-monospace, monospace', fontSize: 12, maxHeight: 360, overflow: 'auto' }} data-testid="result-farm-points">
            {ring.map(([x, y], i) => (
              <li key={i}>
                {x}, {y}
              </li>
            ))}
          </ol>
        </div>
      )}
    </SideDrawer>
  );
}
