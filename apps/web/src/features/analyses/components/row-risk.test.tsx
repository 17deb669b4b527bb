// @vitest-environment jsdom
// A result row's verdict (issue 29): the tag in words, the evidence (reasons, figures per layer) on demand, and nothing
// for a row of an analysis without reference layers.
import '../../../test/dom-setup';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { AnalysisRowRisk } from '@farmland/contracts';
import { RowRisk } from './row-risk';

const LAYER = '00000000-0000-4000-8000-000000000001';
const risk: AnalysisRowRisk = {
  level: 'high',
  reasons: [{ code: 'tree_cover_loss', level: 'high', message: 'Tree-cover loss after 2020 (Loss): 120 m², 3 % of the plot', layer_id: LAYER }],
  figures: [
    {
      layer_id: LAYER,
      layer_name: 'Loss',
      kind: 'tree_cover_loss',
      owner: 'tenant',
      layer_version: 2,
      overlap_sqm: 120,
      share: 0.03,
      computed_at: '2026-11-27T09:00:00Z',
    },
  ],
};

describe('RowRisk', () => {
  it('shows the verdict, and the evidence when asked', () => {
    render(<RowRisk risk={risk} rowNumber={7} />);
    expect(screen.getByTestId('row-verdict').textContent).toBe('High risk');
    expect(screen.queryByTestId('row-evidence')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Evidence' }));
    const evidence = screen.getByTestId('row-evidence');
    expect(evidence.textContent).toContain('Tree-cover loss after 2020 (Loss)');
    expect(evidence.textContent).toContain('Loss');
    expect(screen.getByRole('button', { name: 'Hide evidence' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('shows nothing without a verdict', () => {
    const { container } = render(<RowRisk risk={null} rowNumber={1} />);
    expect(container.textContent).toBe('');
  });
});
