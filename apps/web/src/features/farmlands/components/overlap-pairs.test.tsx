// @vitest-environment jsdom
// The farm drawer's overlap pairs (issue 28): each pair's other farm, area, shares of each farm and IoU, the slivers
// marked "touching or sliver", the empty and error states; and the same in French.
import '../../../test/dom-setup';
import { afterAll, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { FarmOverlap } from '@farmland/contracts';
import { setMessagesForTest } from '../../../i18n';
import { OverlapPairList } from './overlap-pairs';
import french from './overlap-pairs.messages.fr';

const pairs: FarmOverlap[] = [
  { farm_id: '00000000-0000-4000-8000-000000000001', name: 'Half farm', area_sqm: 5000.42, share_of_this: 0.5, share_of_other: 0.25, iou: 0.2, sliver: false },
  {
    farm_id: '00000000-0000-4000-8000-000000000002',
    name: 'Strip farm',
    area_sqm: 0.3,
    share_of_this: 0.00003,
    share_of_other: 0.00003,
    iou: 0.000015,
    sliver: true,
  },
];

describe('OverlapPairList', () => {
  afterAll(() => setMessagesForTest('en', {}));

  it('lists each pair with its measures, and marks the slivers', () => {
    render(<OverlapPairList pairs={pairs} loading={false} error={false} />);
    const grouped = screen.getByTestId('overlap-pair');
    expect(grouped.textContent).toContain('Half farm');
    expect(grouped.textContent).toContain('50% of this farm');
    expect(grouped.textContent).toContain('25% of the other');
    expect(grouped.textContent).toContain('IoU 0.20');
    expect(grouped.textContent).not.toContain('touching or sliver');
    const sliver = screen.getByTestId('overlap-sliver');
    expect(sliver.textContent).toContain('Strip farm');
    expect(sliver.textContent).toContain('touching or sliver');
  });

  it('says when there is none, or when the list could not be loaded', () => {
    const { unmount } = render(<OverlapPairList pairs={[]} loading={false} error={false} />);
    expect(screen.getByTestId('overlap-pairs').textContent).toContain('This farm overlaps no other farm.');
    unmount();
    render(<OverlapPairList pairs={[]} loading={false} error />);
    expect(screen.getByTestId('overlap-pairs').textContent).toContain('The overlaps could not be loaded.');
  });

  it('speaks French when French is chosen', () => {
    setMessagesForTest('fr', french);
    render(<OverlapPairList pairs={pairs} loading={false} error={false} />);
    expect(screen.getByTestId('overlap-sliver').textContent).toContain('contact ou liseré');
    expect(screen.getByTestId('overlap-pair').textContent).toMatch(/50\s?% de cette parcelle/);
  });
});
