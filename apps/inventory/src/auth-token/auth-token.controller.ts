import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AuthScheme, BasicPrincipal, IssuedToken, TokenService } from '@inventory/auth';
import type { FastifyRequest } from 'fastify';

/** With INVENTORY_JWT_PUBLIC_KEY the service holds no signing key: tokens come from the outside issuer. */
class TokenIssuingDisabledError extends Error {
  readonly httpStatus = 404;
  readonly publicMessage = 'Token issuing is disabled: tokens come from the issuer of INVENTORY_JWT_PUBLIC_KEY';
}

@Controller('auth/token')
@AuthScheme('basic')
@ApiTags('Authentication')
export class AuthTokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post()
  @HttpCode(201)
  @ApiBasicAuth()
  @ApiOperation({ summary: 'Trade Basic credentials for a JWT' })
  @ApiResponse({ status: 201, description: '{"access_token": "...", "token_type": "Bearer", "expires_in": 900}' })
  issue(@Req() request: FastifyRequest & { user: BasicPrincipal }): IssuedToken {
    if (!this.tokens.canIssue) throw new TokenIssuingDisabledError();
    return this.tokens.issue(request.user.username);
  }
}
