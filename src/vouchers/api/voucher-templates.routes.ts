import { Type } from 'typebox';
import { PaginationQuery, pageOf, paginated } from '../../platform/http/pagination.js';
import { Paginated, responses, Uuid } from '../../platform/http/responses.js';
import type { ApiApp } from '../../platform/http/types.js';

/** What a voucher template will show once vouchers exist; documented now so clients can code to it. */
const VoucherTemplateJson = Type.Object({ uuid: Uuid, name: Type.String() });

/**
 * GET /voucher-templates: Kairos has no vouchers yet. Integrations list templates
 * at start-up and stop on a 404, so the route answers an empty page instead.
 */
export async function voucherTemplatesRoutes(app: ApiApp): Promise<void> {
  app.get(
    '/voucher-templates',
    {
      schema: {
        tags: ['vouchers'],
        summary: 'Voucher templates: always an empty list (Kairos has no vouchers yet)',
        querystring: PaginationQuery,
        response: responses({ 200: Paginated(VoucherTemplateJson) }),
      },
    },
    async (request) => paginated(request, pageOf(request.query), [], 0),
  );
}
