// Entity creation rules (operations.md, Entity): name required, parent must exist (NotFound), syntax checks on
// state/postal/email/url (InvalidValue per field), duplicate name under one parent (Conflict).
import { describe, expect } from 'vitest';
import { checkEntityInput } from '../../src/accounts/index.js';
import { accountsTest as test } from '../helpers/accounts.js';

describe('createEntity', () => {
  test('creates a top-level entity with trimmed fields, blanks as null and the state upper-cased', ({
    accounts,
    clock,
  }) => {
    const created = accounts.createEntity({
      entityName: '  Lakeside Clinic ',
      state: 'mn',
      postalCode: '55401-1234',
      emailAddress: 'billing@lakeside.example',
      url: 'https://lakeside.example/',
      city: '',
      isTrial: true,
    });
    expect(created).toEqual({
      ok: true,
      value: expect.objectContaining({
        entityId: 1,
        parentEntityId: null,
        entityName: 'Lakeside Clinic',
        state: 'MN',
        city: null,
        isTest: false,
        isTrial: true,
        createdAt: clock.ms(),
      }) as unknown,
    });
    expect(accounts.getEntity(1)).toEqual(created.ok ? created.value : undefined);
    expect(accounts.listEntities()).toHaveLength(1);
  });

  test('requires a name', ({ accounts }) => {
    expect(accounts.createEntity({ entityName: '   ' })).toEqual({
      ok: false,
      errorCode: 'NotEmpty',
      message: "'entityName' must not be empty.",
      errors: [{ errorCode: 'NotEmpty', fieldName: 'entityName', message: "'entityName' must not be empty." }],
    });
  });

  test('reports one InvalidValue per malformed field, the first one on top', () => {
    const checked = checkEntityInput({
      entityName: 'X',
      state: 'ZZ',
      postalCode: '1234',
      emailAddress: 'no-at-sign',
      url: 'ftp://files.example',
    });
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.errorCode).toBe('InvalidValue');
      expect(checked.message).toBe("'ZZ' is an invalid value for 'state'.");
      expect(checked.errors.map((e) => e.fieldName)).toEqual(['state', 'postalCode', 'emailAddress', 'url']);
    }
  });

  test('accepts well-formed optional fields', () => {
    for (const input of [
      { state: 'PR' },
      { state: 'dc' },
      { postalCode: '02139' },
      { emailAddress: 'a.b+c@mail.example.org' },
      { url: 'http://localhost:8080/x' },
    ]) {
      expect(checkEntityInput({ entityName: 'X', ...input }).ok).toBe(true);
    }
  });

  test('a missing parent is NotFound', ({ accounts }) => {
    const r = accounts.createEntity({ entityName: 'Child', parentEntityId: 42 });
    expect(r).toMatchObject({ ok: false, errorCode: 'NotFound', errors: [] });
    expect(accounts.listEntities()).toEqual([]);
  });

  test('a duplicate name under the same parent is a Conflict, case-insensitively; other parents may reuse it', ({
    accounts,
  }) => {
    expect(accounts.createEntity({ entityName: 'North Region' }).ok).toBe(true);
    expect(accounts.createEntity({ entityName: 'north region' })).toMatchObject({ ok: false, errorCode: 'Conflict' });
    const parent = accounts.createEntity({ entityName: 'Health System' });
    expect(parent.ok).toBe(true);
    const parentEntityId = parent.ok ? parent.value.entityId : 0;
    const child = accounts.createEntity({ entityName: 'North Region', parentEntityId });
    expect(child).toMatchObject({ ok: true, value: { parentEntityId } });
    expect(accounts.createEntity({ entityName: 'NORTH REGION', parentEntityId })).toMatchObject({
      ok: false,
      errorCode: 'Conflict',
    });
  });

  test('isWithinEntity follows parent links', ({ accounts }) => {
    accounts.createEntity({ entityName: 'Root' });
    accounts.createEntity({ entityName: 'Mid', parentEntityId: 1 });
    accounts.createEntity({ entityName: 'Leaf', parentEntityId: 2 });
    accounts.createEntity({ entityName: 'Other' });
    expect(accounts.isWithinEntity(3, 1)).toBe(true);
    expect(accounts.isWithinEntity(3, 3)).toBe(true);
    expect(accounts.isWithinEntity(1, 3)).toBe(false);
    expect(accounts.isWithinEntity(3, 4)).toBe(false);
  });
});
