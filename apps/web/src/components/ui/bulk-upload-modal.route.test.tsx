// @vitest-environment jsdom
// The one bulk-upload modal with a mocked API (issue 33 §13): after an upload whose rows fail, every failed-row cell is
// named for a screen reader by the row of the user's file (the header is file row 1, so the API's data row n is file
// row n + 1), the same number the File row column shows; never by the API's internal row number.
import '../../test/dom-setup';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { BulkUploadResult } from '@farmland/contracts';
import { server } from '../../test/api-server';
import { renderRoute } from '../../test/render-route';
import { BulkUploadModal } from './bulk-upload-modal';

const ENDPOINT = '/farmers/bulk-upload/';

const answer: BulkUploadResult = {
  total_rows: 5,
  created_count: 3,
  failed_count: 2,
  failed_rows: [
    { row: 2, row_data: { first_name: 'Ada', email: 'not-an-email' }, errors: { email: ['Enter a valid email address.'] } },
    { row: 5, row_data: { first_name: '', email: 'bola@example.org' }, errors: { first_name: ['This field is required.'] } },
  ],
};

describe('Bulk upload modal: the failed rows', () => {
  it("names every failed-row cell by its file row (the row number shown), not the API's row number", async () => {
    server.use(http.post(`*/api${ENDPOINT}`, () => HttpResponse.json({ data: answer })));
    renderRoute(
      '/upload',
      <BulkUploadModal
        open
        title="Bulk upload farmers"
        endpoint={ENDPOINT}
        template={{ path: '/farmers/bulk-upload/template/', filename: 'farmers.csv' }}
        columns={['first_name', 'email']}
        onCreated={() => undefined}
        onClose={() => undefined}
      />,
      '/upload',
    );
    const input = document.querySelector<HTMLInputElement>('[data-testid="bulk-upload-zone"] input[type="file"]')!;
    await userEvent.upload(input, new File(['first_name,email\r\n'], 'farmers.csv', { type: 'text/csv' }));
    // The drop zone fills its ring, then the file is taken and Upload is enabled
    await screen.findByTestId('bulk-upload-zone-file');
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    const table = await screen.findByTestId('bulk-upload-failed-rows');

    // The visible column: API rows 2 and 5 are file rows 3 and 6
    expect(
      within(table)
        .getAllByTestId('file-row')
        .map((c) => c.textContent),
    ).toEqual(['3', '6']);
    // The cells' accessible names say the same file row
    expect(within(table).getByRole('textbox', { name: 'File row 3 email' })).toHaveProperty('value', 'not-an-email');
    expect(within(table).getByRole('textbox', { name: 'File row 3 first_name' })).toHaveProperty('value', 'Ada');
    expect(within(table).getByRole('textbox', { name: 'File row 6 first_name' })).toHaveProperty('value', '');
    expect(within(table).getByRole('img', { name: 'Why file row 3 email failed' }).getAttribute('data-error')).toBe('Enter a valid email address.');
    expect(within(table).getByRole('img', { name: 'Why file row 6 first_name failed' })).toBeTruthy();
    expect(within(table).getByRole('img', { name: 'File row 3 first_name valid' })).toBeTruthy();
    expect(within(table).getByRole('img', { name: 'File row 6 email valid' })).toBeTruthy();
    // No cell is named by the API's own row numbers (2, 5)
    const names = [...within(table).getAllByRole('textbox'), ...within(table).getAllByRole('img')].map((el) => el.getAttribute('aria-label') ?? '');
    expect(names).toHaveLength(8);
    expect(names.filter((n) => /\brow [25]\b/i.test(n))).toEqual([]);
  });
});
