#pragma once

// Pieces of decode specs that more than one venue reads (a venue's folder builds its spec from
// them, and the generic venue reads both):
//   - the depth-stream conventions: an event {"e":type,"E":time ms,"s":symbol,..} alone or in an
//     envelope {"stream":name,"data":event}, depth diffs with U/u (and pu), trade ids in a/t
//     (Binance's market streams, which many feeds copy);
//   - the change-stream head: {"op":..} messages whose op says what they are: a change message
//     (mcm, ocm; a heartbeat when its ct is HEARTBEAT), the connection message, a status
//     response (an error when its statusCode is FAILURE) (Betfair's stream API).
//
// Thread contract: pure functions building values.

#include "protocol/DecodeSpec.h"

#include <vector>

namespace streamscope {

// The depth-stream field rules.
std::vector<FieldRule> depthStreamRules();
// The depth-stream conventions besides the rules: ms, depthUpdate sequenced, trades end at
// their id, "stream" and "e" start data.
void useDepthStreamConventions(DecodeSpec &spec);
// The change-stream head: kindKey "op" and its values.
void useChangeStreamHead(HeadSpec &head);

} // namespace streamscope
