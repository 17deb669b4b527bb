// The units of the display formats (lib/formatters.ts): the figures are formatted first, in the page's language.
import { defineMessages } from '../i18n';

export const formatText = defineMessages('format', {
  sqm: '{value} sqm',
  hectares: '{value} ha',
  duration: '{hours} hr, {minutes} m, {seconds} s',
});
