// @vitest-environment jsdom
// The verdict tag and the verdict-and-evidence panel: text labels for each level, every reason, the figures per layer
// (kind, overlap in m², share in %), and the loading, error and pending states.
import '../../test/dom-setup';
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { FarmScreening } from '@farmland/contracts';
import { VerdictPanel } from './verdict-panel';
import { VerdictTag } from './verdict-tag';
import { formatShare } from './eudr-labels';

const LAYER = '00000000-0000-4000-8000-000000000001';
const screening: FarmScreening = {
  farm_id: '00000000-0000-4000-8000-0000000000aa',
  figures: [
    {
      layer_id: LAYER,
      layer_name: 'National forest 2020',
      kind: 'forest_2020',
      owner: 'provider',
      layer_version: 1,
      overlap_sqm: 1234.567,
      share: 0.1234,
      computed_at: '2026-11-27T08:00:00Z',
    },
  ],
  pending_layers: ['00000000-0000-4000-8000-000000000002'],
  verdict: {
    level: 'review',
    reasons: [
      { code: 'forest_2020', level: 'review', message: 'Forest at the end of 2020 (National forest 2020): 1,234.57 m² (12.3 %)', layer_id: LAYER },
      { code: 'not_screened', level: 'review', message: 'Not yet screened against 1 layer(s); the screening is running', layer_id: null },
    ],
  },
};

describe('VerdictTag', () => {
  it('says each level in words', () => {
    render(
      <>
        <VerdictTag level="low" testId="a" />
        <VerdictTag level="review" testId="b" />
        <VerdictTag level="high" short testId="c" />
      </>,
    );
    expect(screen.getByTestId('a').textContent).toBe('Low risk');
    expect(screen.getByTestId('b').textContent).toBe('Needs review');
    expect(screen.getByTestId('c').textContent).toBe('High');
    expect(screen.getByTestId('c').getAttribute('data-level')).toBe('high');
  });
});

describe('VerdictPanel', () => {
  it('shows the verdict, every reason and the figures per layer', () => {
    render(<VerdictPanel verdict={screening.verdict} figures={screening.figures} pendingLayers={screening.pending_layers} />);
    const panel = screen.getByTestId('verdict-panel');
    expect(within(panel).getByTestId('verdict-tag').textContent).toBe('Needs review');
    const reasons = within(panel).getByTestId('verdict-reasons');
    expect(reasons.querySelectorAll('li')).toHaveLength(2);
    expect(reasons.textContent).toContain('Forest at the end of 2020');
    const table = within(panel).getByTestId('verdict-figures');
    expect(table.textContent).toContain('National forest 2020');
    expect(table.textContent).toContain('Forest cover 2020');
    expect(table.textContent).toContain('1,234.57');
    expect(table.textContent).toContain('12.3 %');
    expect(table.textContent).toContain('Provider-wide');
    expect(within(panel).getByTestId('verdict-pending').textContent).toContain('1 layer is still being screened');
  });

  it('leaves the table out when only the verdict is known', () => {
    render(
      <VerdictPanel
        verdict={{ level: 'low', reasons: [{ code: 'no_overlap', level: 'low', message: 'No overlap with any reference layer', layer_id: null }] }}
      />,
    );
    expect(screen.queryByTestId('verdict-figures')).toBeNull();
    expect(screen.getByTestId('verdict-tag').textContent).toBe('Low risk');
  });

  it('shows loading and error states', () => {
    const { rerender } = render(<VerdictPanel loading />);
    expect(screen.getByTestId('verdict-panel').getAttribute('aria-busy')).toBe('true');
    rerender(<VerdictPanel error />);
    expect(screen.getByTestId('verdict-error').textContent).toContain('could not be loaded');
  });

  it('formats shares', () => {
    expect(formatShare(0)).toBe('0.00 %');
    expect(formatShare(0.00001)).toBe('< 0.01 %');
    expect(formatShare(0.5)).toBe('50.0 %');
    expect(formatShare(0.0123)).toBe('1.23 %');
  });
});
