import { Type } from '@sinclair/typebox';
import { Email, NullableTimestamp, Password, Str, Timestamp } from '../../lib/schemas.js';

export const TenantStatusSchema = Type.Union(['PENDING_APPROVAL', 'ACTIVE', 'REJECTED', 'SUSPENDED'].map((s) => Type.Literal(s)));

export const RegisterBody = Type.Object(
  {
    organization: Type.Object(
      {
        name: Str(200),
        address: Str(500),
        phone: Str(40, { pattern: '^[+0-9 ().x-]+$' }),
        contactEmail: Email,
        dotNumber: Type.Optional(Str(20, { pattern: '^[0-9]{1,12}$' })),
        mcNumber: Type.Optional(Str(20, { pattern: '^(MC-?)?[0-9]{1,12}$' })),
      },
      { additionalProperties: false },
    ),
    adminUser: Type.Object(
      { firstName: Str(100), lastName: Str(100), email: Email, password: Password },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        organization: {
          name: 'Lone Star Freight LLC',
          address: '100 Commerce St, Dallas, TX 75201',
          phone: '+1 214 555 0100',
          contactEmail: 'ops@lonestarfreight.example',
          dotNumber: '1234567',
          mcNumber: 'MC-765432',
        },
        adminUser: { firstName: 'Olivia', lastName: 'Owner', email: 'olivia@lonestarfreight.example', password: 'correct-horse-battery' },
      },
    ],
  },
);

export const PublicTenant = Type.Object({
  id: Type.String(),
  name: Type.String(),
  dotNumber: Type.Union([Type.String(), Type.Null()]),
  mcNumber: Type.Union([Type.String(), Type.Null()]),
  status: TenantStatusSchema,
  createdAt: Timestamp,
});

const TenantDetails = Type.Composite([
  PublicTenant,
  Type.Object({ address: Type.String(), phone: Type.String(), contactEmail: Type.String(), updatedAt: Timestamp }),
]);

export const TenantProfile = Type.Composite([
  TenantDetails,
  Type.Object({
    approvalHint: Type.Optional(
      Type.String({ description: 'While PENDING_APPROVAL on a development instance (NODE_ENV=development): how the organization gets approved there. Absent otherwise.' }),
    ),
  }),
]);

export const AdminTenant = Type.Composite([
  TenantDetails,
  Type.Object({ statusReason: Type.Union([Type.String(), Type.Null()]), reviewedAt: NullableTimestamp }),
]);

export const RegisterResponse = Type.Object({
  tenant: PublicTenant,
  user: Type.Object({ id: Type.String(), firstName: Type.String(), lastName: Type.String(), email: Type.String(), role: Type.String(), tenantId: Type.String() }),
  message: Type.String(),
});
