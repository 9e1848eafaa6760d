% RAND_QKVGB  The five positional inputs of a random problem, as a list.
%
%   [q, k, v, g, beta] = rand_qkvgb (op, K, V, T, H, HV, B, gate_strength)
%
%   Short form of rand_problem for tests that only need q, k, v, g, beta:
%   the same generator, the same distributions.
%
%   See also: rand_problem.

function [q, k, v, g, beta] = rand_qkvgb (op, K, V, T, H, HV, B, gs)
  P = rand_problem (op, 'K', K, 'V', V, 'T', T, 'H', H, 'HV', HV, 'B', B, 'GateStrength', gs);
  [q, k, v, g, beta] = deal (P.q, P.k, P.v, P.g, P.beta);
end
