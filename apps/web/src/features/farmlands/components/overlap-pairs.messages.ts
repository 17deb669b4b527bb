// The farm drawer's overlap pairs (issue 28): texts in English; French in overlap-pairs.messages.fr.ts.
import { defineMessages } from '../../../i18n';

export const overlapPairsText = defineMessages('overlapPairs', {
  title: 'Overlaps with other farms',
  none: 'This farm overlaps no other farm.',
  loadFailed: 'The overlaps could not be loaded.',
  pair: '{area} · {shareThis, number, ::percent .#} of this farm · {shareOther, number, ::percent .#} of the other · IoU {iou, number, ::.00}',
  sliver: 'touching or sliver',
  sliverHint: 'Under the overlap tolerance (Configurations): listed, but not grouped',
  limited: 'The {count, number} largest overlaps are listed.',
});
