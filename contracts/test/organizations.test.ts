import {
  canAssignRole,
  canRemoveMember,
  canSeeInvoices,
  GIB,
  invoiceLines,
  joinPath,
  OrgPermission,
  orgRoleCan,
  ROLES,
  type ProjectUsage,
} from '../src';

describe('who may do what in an organization', () => {
  it('lets owners and administrators manage, and nobody else', () => {
    for (const permission of Object.values(OrgPermission)) {
      expect(ROLES.filter((role) => orgRoleCan(role, permission))).toEqual(['owner', 'administrator']);
    }
    expect(orgRoleCan(undefined, OrgPermission.MembersWrite)).toBe(false);
  });

  it('keeps the owner role for owners to grant and take away', () => {
    expect(canAssignRole('owner', 'developer', 'owner')).toBe(true);
    expect(canAssignRole('owner', 'owner', 'read_only')).toBe(true);
    expect(canAssignRole('administrator', 'developer', 'administrator')).toBe(true);
    expect(canAssignRole('administrator', null, 'read_only')).toBe(true);
    expect(canAssignRole('administrator', null, 'owner')).toBe(false);
    expect(canAssignRole('administrator', 'owner', 'developer')).toBe(false);
    expect(canAssignRole('developer', 'read_only', 'developer')).toBe(false);
    expect(canAssignRole('read_only', null, 'read_only')).toBe(false);
  });

  it('lets anyone leave, managers remove others, and only owners remove owners', () => {
    expect(canRemoveMember('read_only', 'read_only', true)).toBe(true);
    expect(canRemoveMember('developer', 'read_only', false)).toBe(false);
    expect(canRemoveMember('administrator', 'developer', false)).toBe(true);
    expect(canRemoveMember('administrator', 'owner', false)).toBe(false);
    expect(canRemoveMember('owner', 'owner', false)).toBe(true);
  });

  it('shows invoices to members with the billing-invoices permission, unless billed through a partner', () => {
    expect(ROLES.filter((role) => canSeeInvoices(role, false))).toEqual(['owner', 'administrator']);
    expect(ROLES.filter((role) => canSeeInvoices(role, true))).toEqual([]);
  });

  it('puts the token in the join link, encoded', () => {
    expect(joinPath('a+b/c=')).toBe('/join?token=a%2Bb%2Fc%3D');
  });
});

describe('statement lines', () => {
  const project = (over: Partial<ProjectUsage>): ProjectUsage => ({
    ref: 'shop',
    name: 'Shop',
    plan: 'pro',
    database_bytes: 0,
    storage_bytes: 0,
    egress_bytes: 0,
    ...over,
  });

  it('charges the Pro fee, and the overage beyond each quota per GB, rounded to the cent', () => {
    const lines = invoiceLines([project({ database_bytes: 9 * GIB, storage_bytes: 100 * GIB, egress_bytes: 250 * GIB + GIB / 3 })]);
    expect(lines.map((l) => [l.description, l.quantity, l.unit, l.amount_cents])).toEqual([
      ['Pro plan', 1, 'month', 2500],
      ['Database size over 8 GB', 1, 'GB', 13],
      ['Egress over 250 GB', 0.333, 'GB', 3],
    ]);
  });

  it('never charges a free project, whatever it used', () => {
    expect(invoiceLines([project({ plan: 'free', database_bytes: 50 * GIB, egress_bytes: 900 * GIB })])).toEqual([
      { project_ref: 'shop', project_name: 'Shop', description: 'Free plan', quantity: 1, unit: 'month', amount_cents: 0 },
    ]);
  });
});
