import * as v from 'valibot';

export const DeleteCustomerResult = v.object({
  passUserId: v.string(),
  deleted: v.literal(true),
});
