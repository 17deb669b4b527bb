// A result row's EUDR verdict (issue 29): the verdict tag, and on demand the evidence (every reason of the plot-risk tree,
// the overlap and share per chosen reference layer) in the shared verdict panel. Rows of an analysis without reference
// layers carry no verdict and show nothing.
import { useState } from 'react';
import Button from 'antd/es/button';
import type { AnalysisRowRisk } from '@farmland/contracts';
import { VerdictPanel } from '../../../components/eudr/verdict-panel';
import { VerdictTag } from '../../../components/eudr/verdict-tag';
import { t } from '../../../i18n';
import { analysesText as m } from '../analyses.messages';

export function RowRisk({ risk, rowNumber }: { risk: AnalysisRowRisk | null; rowNumber: number }) {
  const [open, setOpen] = useState(false);
  if (!risk) return null;
  return (
    <div className="mt-4" data-testid="row-risk" data-level={risk.level}>
      <span className="inline-12">
        <VerdictTag level={risk.level} testId="row-verdict" />
        <Button size="small" type="link" aria-expanded={open} aria-controls={`row-evidence-${rowNumber}`} onClick={() => setOpen(!open)}>
          {t(open ? m.hideEvidence : m.evidence)}
        </Button>
      </span>
      {open && (
        <div id={`row-evidence-${rowNumber}`} className="mt-8" data-testid="row-evidence">
          <VerdictPanel verdict={{ level: risk.level, reasons: risk.reasons }} figures={risk.figures} title={t(m.plotRisk)} />
        </div>
      )}
    </div>
  );
}
