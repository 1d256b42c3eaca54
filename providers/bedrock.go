package providers

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// BedrockConfig configures NewBedrock.
type BedrockConfig struct {
	// APIKey is an Amazon Bedrock API key (what AWS_BEARER_TOKEN_BEDROCK
	// holds), sent as a bearer token.
	APIKey string
	// Region picks the endpoint https://bedrock-mantle.{Region}.api.aws/anthropic.
	Region string
	// BaseURL overrides the endpoint (a gateway, a test server).
	BaseURL       string
	Timeout       time.Duration
	MaxRetries    int
	MaxRetryDelay time.Duration
	Prices        Prices
	// HTTPClient carries the calls; nil means NewHTTPClient(0).
	HTTPClient *http.Client
}

// ErrBedrockSigV4 explains why only Bedrock API keys work in this build.
var ErrBedrockSigV4 = errors.New("bedrock: IAM (SigV4) credentials are not supported in this build " +
	"(the SDK's bedrock package needs the AWS SDK for Go v2, which is not a dependency of this module); " +
	"set AWS_BEARER_TOKEN_BEDROCK to a Bedrock API key instead")

// NewBedrock builds a client for Claude on Amazon Bedrock.
//
// It talks to Bedrock's Anthropic-compatible Messages endpoint ("Mantle")
// with a Bedrock API key as bearer token, through the plain Anthropic client:
// that endpoint speaks the same wire format, so no AWS SDK is needed. The
// SDK's own bedrock package would also cover SigV4 and the AWS credential
// chain, but it imports github.com/aws/aws-sdk-go-v2, which this module does
// not require; without an API key NewBedrock returns ErrBedrockSigV4. Model
// names on this endpoint are the Anthropic ones ("claude-sonnet-4-5").
func NewBedrock(cfg BedrockConfig) (*Anthropic, error) {
	if cfg.APIKey == "" {
		return nil, ErrBedrockSigV4
	}
	base := cfg.BaseURL
	if base == "" {
		region := strings.TrimSpace(cfg.Region)
		if region == "" {
			return nil, errors.New("bedrock: AWS_REGION is not set (needed to pick the Bedrock endpoint)")
		}
		if strings.ContainsAny(region, "/:?#@ ") {
			return nil, fmt.Errorf("bedrock: AWS_REGION %q is not a region name", region)
		}
		base = "https://bedrock-mantle." + region + ".api.aws/anthropic"
	}
	acfg := AnthropicConfig{
		BaseURL:       base,
		Timeout:       cfg.Timeout,
		MaxRetries:    cfg.MaxRetries,
		MaxRetryDelay: cfg.MaxRetryDelay,
		Prices:        cfg.Prices,
		HTTPClient:    cfg.HTTPClient,
	}
	auth := []option.RequestOption{option.WithAuthToken(cfg.APIKey), option.WithBaseURL(base)}
	return newAnthropic("bedrock", acfg, newScrubber(cfg.APIKey), auth), nil
}
