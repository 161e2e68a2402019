import { describe, expect, it } from 'vitest';
import { ui } from '@herald/contract';
import { ApiError } from '../../lib/api-client';
import { failure } from './outcome-alert';

describe('failure', () => {
  it('keeps the screen’s text and adds the server’s reason', () => {
    const err = new ApiError(400, 'No user with the email a@b.co.');
    expect(failure(err, ui.announcements.createFailed)).toEqual({
      ok: false,
      text: 'Failed to create announcement.',
      detail: 'No user with the email a@b.co.',
    });
    expect(failure(new Error('offline'), ui.announcements.deleteFailed)).toEqual({
      ok: false,
      text: 'Failed to delete announcement.',
      detail: undefined,
    });
  });
});
