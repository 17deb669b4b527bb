// /admin/reports/due-diligence: the printable EUDR due-diligence report of an operational area or of chosen farms.
import { DueDiligenceReportScreen } from '../../features/eudr-reports/components/due-diligence-report';

export function DueDiligencePage() {
  return <DueDiligenceReportScreen />;
}
