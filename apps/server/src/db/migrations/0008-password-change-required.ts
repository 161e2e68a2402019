/**
 * A password an Admin set (PUT /api/users/admin-reset-password/{id}) is known to someone else:
 * the user must change it at the next login. Set by the Admin reset, cleared when the
 * user sets a password of their own (change password, or reset with an emailed code).
 */
export const sql = /* sql */ `
ALTER TABLE users ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
`;
