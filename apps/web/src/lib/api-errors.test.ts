// The API's messages in the page's language: the catalogue's text for a known code whose message is the known English
// (figures carried over), the server's message otherwise; English stays exactly as the server sent it.
import { afterAll, describe, expect, it } from 'vitest';
import { setMessagesForTest } from '../i18n';
import { setLocaleForTest } from '../i18n/locale';
import apiErrorsFr from './api-errors.messages.fr';
import { ApiError } from './api-client';
import { localFieldMessage, localProblemMessage } from './api-errors';
import { errorMessages } from './notifier';
import { fieldErrorsOf } from './field-errors';

describe('API messages in English', () => {
  it('are shown as the server sent them', () => {
    expect(localProblemMessage('invalid_credentials', 'Invalid email or password.')).toBe('Invalid email or password.');
    expect(localProblemMessage('too_many_attempts', 'Too many failed attempts. Try again in 3 minute(s).')).toBe(
      'Too many failed attempts. Try again in 3 minute(s).',
    );
    expect(
      new ApiError(
        409,
        {
          code: 'farmer_has_farms',
          message: 'This farmer has 1 farm. Delete the farms first, or delete again with delete_farms=true to remove the farmer and the farms together.',
        },
        true,
      ).message,
    ).toBe('This farmer has 1 farm. Delete the farms first, or delete again with delete_farms=true to remove the farmer and the farms together.');
  });
});

describe('API messages in French', () => {
  afterAll(() => {
    setLocaleForTest('en');
    setMessagesForTest('en', {});
  });

  it('show the catalogue text for a known code and message, with its figures', () => {
    setLocaleForTest('fr');
    setMessagesForTest('fr', apiErrorsFr);
    expect(localProblemMessage('invalid_credentials', 'Invalid email or password.')).toBe('E-mail ou mot de passe incorrect.');
    expect(localProblemMessage('too_many_attempts', 'Too many failed attempts. Try again in 3 minute(s).')).toBe(
      'Trop de tentatives échouées. Réessayez dans 3 minute(s).',
    );
    expect(
      localProblemMessage(
        'farmer_has_farms',
        'This farmer has 2 farms. Delete the farms first, or delete again with delete_farms=true to remove the farmer and the farms together.',
      ),
    ).toContain('Cet agriculteur a 2 parcelles.');
    expect(new ApiError(403, { code: 'forbidden', message: 'You do not have permission to perform this action.' }, true).message).toBe(
      "Vous n'avez pas l'autorisation d'effectuer cette action.",
    );
  });

  it('fall back to the server message for an unknown code or an unknown message', () => {
    expect(localProblemMessage('some_new_code', 'Something new happened.')).toBe('Something new happened.');
    expect(localProblemMessage('forbidden', 'Only the owner can do this.')).toBe('Only the owner can do this.');
    expect(localProblemMessage(undefined, 'No code at all.')).toBe('No code at all.');
  });

  it('reach the notifier and the forms: toasts and field errors', () => {
    const invalid = new ApiError(400, { code: 'invalid_mfa_code', message: 'Invalid or expired code.', errors: { code: ['Invalid or expired code'] } }, false);
    expect(errorMessages(invalid)).toEqual(['Code: Code invalide ou expiré']);
    expect(fieldErrorsOf(invalid)).toEqual([{ field: 'code', messages: ['Code invalide ou expiré'] }]);
    expect(localFieldMessage('The file is larger than the limit of 3145728 bytes')).toBe('Le fichier dépasse la limite de 3145728 octets');
    expect(
      errorMessages(
        new ApiError(
          409,
          {
            code: 'transaction_conflict',
            message: 'This change collided with another change to the same records at the same moment, and nothing was saved. Try again.',
          },
          true,
        ),
      ),
    ).toEqual([
      'Cette modification est entrée en conflit avec une autre modification des mêmes enregistrements au même moment, et rien n’a été enregistré. Réessayez.',
    ]);
  });
});
