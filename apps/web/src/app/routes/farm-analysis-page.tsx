// /admin/farm-analysis: the list of past analyses. Uploading a file or a JSON payload and the result map come with the
// custom-analysis screens of a later issue; the API for both is in place.
import { AnalysisReportList } from '../../features/analyses/components/analysis-report-list';

export function FarmAnalysisPage() {
  return <AnalysisReportList />;
}
