import { describe, expect, it } from 'vitest';

import { embeddedNotice } from '../../src/cli/embeddedNotice.js';

describe('embeddedNotice', () => {
  it('says where the embedded server listens without its password, and where the password is', () => {
    const line = embeddedNotice('postgres://postgres:s3cret-pw@127.0.0.1:54329/prediction');
    expect(line).toBe(
      'prediction-ingest: embedded Postgres at postgres://127.0.0.1:54329/prediction (password in DATA_DIR/embedded-postgres.json)\n',
    );
  });
});
