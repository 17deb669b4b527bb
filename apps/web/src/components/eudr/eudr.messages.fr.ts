// Words of the EUDR screens, in French.
import { translate } from '../../i18n';
import { eudrText } from './eudr.messages';

export default translate(eudrText, {
  riskLow: 'Risque faible',
  riskReview: 'À examiner',
  riskHigh: 'Risque élevé',
  shortLow: 'Faible',
  shortReview: 'À examiner',
  shortHigh: 'Élevé',
  tagTitle: 'Risque RDUE de la parcelle : {level}',
  kindForest2020: 'Couvert forestier 2020',
  kindTreeCoverLoss: 'Perte de couvert arboré',
  kindProtectedArea: 'Aire protégée',
  kindIndigenousLand: 'Terre autochtone ou communautaire',
  kindConcession: 'Concession',
  kindOther: 'Autre',
  ownerProvider: 'Toute la plateforme',
  ownerTenant: 'Propre',
  panelTitle: 'Risque RDUE de la parcelle',
  panelError: "L'évaluation du risque de la parcelle n'a pas pu être chargée.",
  noLayerApplies: "Aucune couche de référence ne s'applique encore à cette parcelle",
  layer: 'Couche',
  screened: '{owner} · évaluée le {date}',
  kind: 'Type',
  overlap: 'Chevauchement (m²)',
  share: 'Part',
  pending: "{count, plural, one {1 couche est} other {{count} couches sont}} encore en cours d'évaluation.",
  noFeature: "Aucun élément de couche de référence ne touche cette parcelle.",
  legendLabel: 'Couches de référence sur la carte',
  truncated: 'Seuls les {count} premiers éléments sont dessinés.',
});
