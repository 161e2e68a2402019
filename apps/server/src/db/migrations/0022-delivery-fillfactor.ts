/**
 * Room for HOT updates of campaign_recipients. Since migration 21 no indexed column
 * changes as a recipient is claimed, sent, delivered and read, but a HOT update also needs the
 * new row version to fit on the row's own page. A row grows from about 56 bytes (campaign and
 * phone) to about 140 once sent (state, times, the provider's message id), and a claim writes
 * a whole batch of neighbouring rows at once, so at 70% most pages filled up within the claim
 * and the rest of its rows moved to new pages with new index entries. Measured on 50,000 rows
 * claimed by 500, written by 50, then delivered and read (PostgreSQL 15): HOT share of the
 * updates 62% at fillfactor 70, 84% at 40, 97% at 25, and the table ends about as large
 * either way (the non-HOT versions extend it instead). In the delivery bench (100,000 at
 * 5,000 msg/s, then delivered and read): 67% of the table's updates HOT at 70, 99.8% at 25,
 * dead rows left 337,000 -> 29,000. The cost: a campaign's rows take about 3x the pages until
 * they are sent (and for good when delivered by hand). New pages only: a campaign's rows are
 * written once, by the COPY of its creation.
 */
export const sql = /* sql */ `
ALTER TABLE campaign_recipients SET (fillfactor = 25);
`;
