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
import { t } from '../../../i18n';
import { analysesText as m } from '../analyses.messages';
import './analyses.css';

export function ResultFarmDrawer({ farm, onClose }: { farm: AnalysisMapFeature | null; onClose: () => void }) {
  const ring = farm?.coordinates[0] ?? [];
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(ring));
      notifySuccess(t(m.coordinatesCopied));
    } catch (err) {
      notifyError(err);
    }
  };
  return (
    <SideDrawer open={farm !== null} title={farm?.name ?? (farm ? t(m.rowName, { row: String(farm.row_number) }) : '')} onClose={onClose}>
      {farm && (
        <div data-testid="result-farm-drawer">
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t(m.row)}>{farm.row_number}</Descriptions.Item>
            <Descriptions.Item label={t(m.farmSize)}>{formatHectares(farm.area)}</Descriptions.Item>
            <Descriptions.Item label={t(m.area)}>{formatSqm(farm.area)}</Descriptions.Item>
            <Descriptions.Item label={t(m.operationalArea)}>{farm.operational_area ?? t(m.notAvailable)}</Descriptions.Item>
            {farm.risk_level && (
              <Descriptions.Item label={t(m.eudrVerdict)}>
                <VerdictTag level={farm.risk_level} testId="result-farm-verdict" />
                <div className="text-muted small mt-4">{t(m.verdictHint)}</div>
              </Descriptions.Item>
            )}
            {farm.warnings && farm.warnings.length > 0 && (
              <Descriptions.Item label={t(m.warnings)}>
                <RowWarnings codes={farm.warnings} testId="result-farm-warnings" />
              </Descriptions.Item>
            )}
          </Descriptions>
          <div className="inline justify-between coordinate-head">
            <strong>{t(m.farmCoordinate)}</strong>
            <Button size="small" onClick={() => void copy()}>
              {t(m.copyCoordinates)}
            </Button>
          </div>
          <ol className="coordinate-list mono" data-testid="result-farm-points">
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
