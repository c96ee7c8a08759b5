#include "DecodeSpec.h"

#include "DecodedFields.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace streamscope {

bool TextMarker::matches(const DecodedFields &fields) const
{
    if (slot == kEventType)
        return !value.empty() && fields.eventType == value;
    return !value.empty() && fields.texts[slot] == value;
}

DecodeSpec::DecodeSpec(std::initializer_list<FieldRule> rules)
    : DecodeSpec(std::vector<FieldRule>(rules))
{
}

DecodeSpec::DecodeSpec(std::vector<FieldRule> rules)
    : m_rules(std::move(rules))
{
    Q_ASSERT(m_rules.size() <= kMaxRules);
    buildIndex();
    m_readsSequence = reads(FieldRole::FirstUpdateId) || reads(FieldRole::FinalUpdateId);
}

DecodeSpec::DecodeSpec(const DecodeSpec &other)
{
    *this = other;
}

DecodeSpec &DecodeSpec::operator=(const DecodeSpec &other)
{
    if (this == &other)
        return *this;
    timeUnit = other.timeUnit;
    sequencedEventType = other.sequencedEventType;
    idEndsEventTypes = other.idEndsEventTypes;
    prefixDecode = other.prefixDecode;
    heartbeat = other.heartbeat;
    notice = other.notice;
    head = other.head;
    trades = other.trades;
    m_rules = other.m_rules;
    m_readsSequence = other.m_readsSequence;
    buildIndex(); // the entries point into this copy's rules
    return *this;
}

void DecodeSpec::buildIndex()
{
    m_entryCount = 0;
    m_index = {};
    for (const bool identity : {false, true}) {
        for (const FieldScope scope : {kRootScope, kEventScope, kItemScope}) {
            // Stable: rules of one first character keep their order, so the first that matches wins.
            std::vector<const FieldRule *> inScope;
            for (const FieldRule &rule : m_rules) {
                if ((rule.scopes & scope) && (identity || !rule.identity))
                    inScope.push_back(&rule);
            }
            std::stable_sort(inScope.begin(), inScope.end(),
                             [](const FieldRule *a, const FieldRule *b) { return a->key[0] < b->key[0]; });
            std::array<Range, kFirstChars> &index = m_index[identity][scope];
            for (const FieldRule *rule : inScope) {
                Q_ASSERT(!rule->key.empty() && rule->key.size() <= kMaxKeyBytes);
                Q_ASSERT(rule->key.find_first_of("\"\\") == std::string_view::npos);
                Q_ASSERT(rule->slot < (rule->role == FieldRole::Flag         ? 32
                                           : rule->role == FieldRole::Number ? DecodedFields::kNumbers
                                                                             : DecodedFields::kTexts));
                const auto first = static_cast<unsigned char>(rule->key[0]);
                Q_ASSERT(first > ' ' && first < kFirstChars);
                Entry entry;
                entry.rule = rule;
                entry.length = rule->key.size();
                char bytes[sizeof(std::uint64_t)] = {};
                char mask[sizeof(std::uint64_t)] = {};
                for (std::size_t k = 0; k < sizeof bytes && k <= entry.length; ++k) {
                    bytes[k] = k < entry.length ? rule->key[k] : '"';
                    mask[k] = char(0xff);
                }
                std::memcpy(&entry.word, bytes, sizeof bytes);
                std::memcpy(&entry.mask, mask, sizeof mask);
                Q_ASSERT(m_entryCount < kMaxEntries);
                Range &range = index[first];
                if (range.begin == range.end)
                    range.begin = quint8(m_entryCount);
                m_entries[m_entryCount++] = entry;
                range.end = quint8(m_entryCount);
            }
        }
    }
}

bool DecodeSpec::reads(FieldRole role) const
{
    return std::any_of(m_rules.begin(), m_rules.end(), [role](const FieldRule &r) { return r.role == role; });
}

} // namespace streamscope
