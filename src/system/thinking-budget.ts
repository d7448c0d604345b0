/**
 * The API's smallest thinking budget (`budget_tokens`): settings.json's schema refuses less, and the
 * agent checks the budget it is given against it too. Here because settings may not import agent.
 */
export const MIN_THINKING_BUDGET = 1_024;
