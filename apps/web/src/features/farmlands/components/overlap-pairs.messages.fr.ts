// The farm drawer's overlap pairs, in French.
import { translate } from '../../../i18n';
import { overlapPairsText } from './overlap-pairs.messages';

export default translate(overlapPairsText, {
  title: 'Chevauchements avec d’autres parcelles',
  none: 'Cette parcelle ne chevauche aucune autre parcelle.',
  loadFailed: 'Les chevauchements n’ont pas pu être chargés.',
  pair: '{area} · {shareThis, number, ::percent .#} de cette parcelle · {shareOther, number, ::percent .#} de l’autre · IoU {iou, number, ::.00}',
  sliver: 'contact ou liseré',
  sliverHint: 'Sous la tolérance de chevauchement (Configurations) : listé, mais non regroupé',
  limited: 'Les {count, number} plus grands chevauchements sont listés.',
});
