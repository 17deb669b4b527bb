// /admin/farm-analysis/{analysis}: one analysis's results (lat and lng in the address centre the map). The frame's
// header shows the way back (Custom Farm Analysis / Details).
import { useParams } from 'react-router';
import { AnalysisResult } from '../../features/analyses/components/analysis-result';

export function FarmAnalysisResultPage() {
  const { analysis = '' } = useParams();
  return <AnalysisResult key={analysis} id={analysis} />;
}
