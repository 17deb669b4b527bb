// /admin/farm-analysis: 'Upload Farmlands Data' (file or endpoint upload, through the drawers) above the 'Analysis
// Report' list, whose rows open the analysis page.
import { AnalysisReportList } from '../../features/analyses/components/analysis-report-list';
import { AnalysisUpload } from '../../features/analyses/components/analysis-upload';
import { Stack } from '../../components/ui/layout';

export function FarmAnalysisPage() {
  return (
    <Stack gap={24}>
      <AnalysisUpload />
      <AnalysisReportList />
    </Stack>
  );
}
