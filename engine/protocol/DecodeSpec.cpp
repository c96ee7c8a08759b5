#include "DecodeSpec.h"

#include "DecodedFields.h"

#include <algorithm>

namespace streamscope {

bool TextMarker::matches(const DecodedFields &fields) const
{
    return !value.empty() && fields.texts[slot] == value;
}

DecodeSpec::DecodeSpec(std::initializer_list<FieldRule> rules)
    : m_rules(rules)
{
    Q_ASSERT(m_rules.size() <= kMaxRules);
    // Stable: rules of one first character keep their order, so the first that matches wins.
    std::stable_sort(m_rules.begin(), m_rules.end(),
                     [](const FieldRule &a, const FieldRule &b) { return a.key[0] < b.key[0]; });
    for (std::size_t i = 0; i < m_rules.size(); ++i) {
        const FieldRule &rule = m_rules[i];
        Q_ASSERT(!rule.key.empty() && rule.key.size() <= kMaxKeyBytes);
        Q_ASSERT(rule.key.find_first_of("\"\\") == std::string_view::npos);
        Q_ASSERT(rule.slot < (rule.role == FieldRole::Flag         ? 32
                                  : rule.role == FieldRole::Number ? DecodedFields::kNumbers
                                                                   : DecodedFields::kTexts));
        const auto first = static_cast<unsigned char>(rule.key[0]);
        Q_ASSERT(first > ' ' && first < m_begin.size());
        if (m_begin[first] == m_end[first])
            m_begin[first] = quint8(i);
        m_end[first] = quint8(i + 1);
    }
    m_readsSequence = reads(FieldRole::FirstUpdateId) || reads(FieldRole::FinalUpdateId);
}

bool DecodeSpec::reads(FieldRole role) const
{
    return std::any_of(m_rules.begin(), m_rules.end(), [role](const FieldRule &r) { return r.role == role; });
}

} // namespace streamscope
